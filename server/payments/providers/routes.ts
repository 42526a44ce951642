import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps';

/** Payments area, providers part (/work/notes/payments.md); the owner fills it. */
export async function providerRoutes(_app: FastifyInstance, _opts: { deps: Deps }) {}
