import type { FastifyInstance } from 'fastify';
import {
  CONSULTATION_EXPORT_MAX, consultationCountInput, consultationExportInput, consultationPageQuery, consultationSearchInput,
  type ConsultationListItem, type ConsultationPage,
} from '../../contract/consultations';
import { authOf } from '../auth/plugin';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';
import { consultationCreateRoutes } from './create';
import { consultationDiscussionRoutes } from './discussion';
import { consultationWorkbook } from './export';
import { countRows, listRows, queryPage, whereOf, type ConsultationCount } from './query';
import { consultationScope } from './scope';
import { consultationStatusRoutes } from './status';

const SERVER_TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * The consultation area (areas §7 "Consultations"): the lists (page query — which the pending-consultation
 * notification polls, core §7 —, search, count, export), and below, create, the detail and the writes.
 * Every list is the consultations of the account's organisations in groups with consultations on (./scope.ts).
 */
export async function consultationRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const { db } = deps;

  app.post('/consultations/query-page', async (req): Promise<ConsultationPage> => {
    const input = parse(consultationPageQuery, req.body);
    const access = await authOf(req).access();
    return queryPage(db, await consultationScope(db, access), input, { accountId: access.accountId });
  });

  // The search box: the same filters, a short answer without a total.
  app.post('/consultations/query', async (req): Promise<{ items: ConsultationListItem[] }> => {
    const input = parse(consultationSearchInput, req.body);
    const access = await authOf(req).access();
    const where = whereOf(await consultationScope(db, access), input.filters, { accountId: access.accountId });
    return { items: where ? await listRows(db, where, input.sorts, input.limit, input.skip) : [] };
  });

  // Exact up to CONSULTATION_COUNT_EXACT_LIMIT, estimated above (as the page's total).
  app.post('/consultations/count', async (req): Promise<ConsultationCount> => {
    const input = parse(consultationCountInput, req.body);
    const access = await authOf(req).access();
    const where = whereOf(await consultationScope(db, access), input.filters, { accountId: access.accountId });
    return where ? countRows(db, where) : { total: 0, totalIsEstimate: false };
  });

  // Areas §5: at most 1000 rows, counted before anything is read.
  app.post('/consultations/export', async (req, reply) => {
    const input = parse(consultationExportInput, req.body);
    const access = await authOf(req).access();
    const where = whereOf(await consultationScope(db, access), input.filters, { accountId: access.accountId });
    const count = where ? await countRows(db, where, CONSULTATION_EXPORT_MAX) : { total: 0, totalIsEstimate: false };
    if (count.totalIsEstimate) {
      throw new ApiError('ExportTooLarge', `At most ${CONSULTATION_EXPORT_MAX} rows can be exported`, { max: CONSULTATION_EXPORT_MAX, total: count.total });
    }
    const rows = where ? await listRows(db, where, input.sorts, CONSULTATION_EXPORT_MAX, 0) : [];
    const file = await consultationWorkbook(rows, input.lang, input.timeZone ?? SERVER_TIME_ZONE);
    const stamp = deps.clock.now().toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
    return reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename="consultations-${stamp}.xlsx"`)
      .send(file);
  });

  await consultationCreateRoutes(app, { deps });
  await consultationDiscussionRoutes(app, { deps });
  await consultationStatusRoutes(app, { deps });
}
