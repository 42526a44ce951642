import type { FastifyInstance } from 'fastify';
import { consultationPageQuery, type ConsultationPage } from '../../contract/consultations';
import { authOf } from '../auth/plugin';
import type { Deps } from '../deps';
import { parse } from '../http/validate';
import { queryPage } from './query';
import { consultationScope } from './scope';

/**
 * The consultation area (areas §7 "Consultations"). So far the page query, which the pending-consultation
 * notification polls (core §7: status equal 0, limit 5, skip 0, newest id first).
 */
export async function consultationRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  app.post('/consultations/query-page', async (req): Promise<ConsultationPage> => {
    const input = parse(consultationPageQuery, req.body);
    const access = await authOf(req).access();
    return queryPage(deps.db, await consultationScope(deps.db, access), input);
  });
}
