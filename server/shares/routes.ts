import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps';
import { filmRoutes } from './film';
import { publishRoutes } from './publish';
import { reportShareRoutes } from './reportShares';
import { reportViewRoutes } from './reportView';

/** Everything that shows a report or images outside the organisation (contract/shares.ts). */
export async function shareRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  await app.register(reportShareRoutes, { deps });
  await app.register(reportViewRoutes, { deps });
  await app.register(publishRoutes, { deps });
  await app.register(filmRoutes, { deps });
}
