import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps';

/** Payments area, requests part (/work/notes/payments.md); the owner fills it. */
export async function requestRoutes(_app: FastifyInstance, _opts: { deps: Deps }) {}
