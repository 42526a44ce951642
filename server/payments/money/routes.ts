import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps';

/** Payments area, money part (/work/notes/payments.md); the owner fills it. */
export async function moneyRoutes(_app: FastifyInstance, _opts: { deps: Deps }) {}
