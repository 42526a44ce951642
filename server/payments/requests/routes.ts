import type { FastifyInstance } from 'fastify';
import { and, eq, isNull } from 'drizzle-orm';
import { idParam } from '../../../contract/common';
import {
  applyInput, applyRemoteInput, ORDER_EXPORT_MAX, orderExportInput, orderPageQuery, productsQuery, remoteReportQuery,
  type ExpertProducts, type ReportOrderDetail,
} from '../../../contract/payments';
import { authOf } from '../../auth/plugin';
import { exams } from '../../db/schema';
import type { Deps } from '../../deps';
import { ApiError } from '../../http/errors';
import { parse } from '../../http/validate';
import { withIdempotency } from '../money/idempotency';
import { applyForReport, liveRemoteOrderId, productsOf } from './apply';
import { orderWorkbook } from './export';
import { countOrders, listOrders, orderPage, orderScope, whereOf } from './list';
import { ORDER_READ_ACTIONS, orderDetail } from './load';
import { withdrawOrder } from './withdraw';

const SERVER_TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * Payments area, requests part (/work/notes/payments.md "Requests"): products, applying (expert and remote), the
 * request detail, withdrawing, and the order list with its export. Paying and refunding are the money part's.
 */
export async function requestRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const { db } = deps;

  app.get('/report-requests/products', async (req): Promise<ExpertProducts> => {
    const q = parse(productsQuery, req.query);
    return productsOf(db, await authOf(req).access(), q.examId, q.type);
  });

  // The spec's own name (areas §7 "POST request/apply") answers the same as the area's.
  for (const path of ['/report-requests/apply', '/request/apply']) app.post(path, async (req, reply) => {
    const input = parse(applyInput, req.body);
    const access = await authOf(req).access();
    const answer = await withIdempotency(req, 'report-requests/apply', async () => {
      const id = await applyForReport(deps, access, {
        examId: input.examId, type: input.type, bucketIds: input.bucketIds, agreeTerms: input.agreeTerms,
        reason: input.reason, email: input.email, mobile: input.mobile,
      });
      return { status: 201, body: await orderDetail(db, access, id) };
    }, db);
    reply.status(answer.status);
    return answer.body;
  });

  app.post('/report-requests/apply-remote-report', async (req, reply) => {
    const input = parse(applyRemoteInput, req.body);
    const access = await authOf(req).access();
    const answer = await withIdempotency(req, 'report-requests/apply-remote-report', async () => {
      const id = await applyForReport(deps, access, { examId: input.examId, type: 'remote', bucketIds: [], agreeTerms: input.agreeTerms, reason: input.reason });
      return { status: 201, body: await orderDetail(db, access, id) };
    }, db);
    reply.status(answer.status);
    return answer.body;
  });

  // The exam's live remote request, or null: who may read the exam's applications may ask.
  app.get('/report-requests/remote-report', async (req): Promise<ReportOrderDetail | null> => {
    const q = parse(remoteReportQuery, req.query);
    const access = await authOf(req).access();
    const [exam] = await db.select({ id: exams.id, bucketId: exams.bucketId }).from(exams).where(and(eq(exams.id, q.examId), isNull(exams.deletedTime)));
    if (!exam || !access.buckets.has(exam.bucketId)) throw new ApiError('NotFound');
    if (!ORDER_READ_ACTIONS.some((a) => access.buckets.get(exam.bucketId)?.actions.has(a))) throw new ApiError('Forbidden');
    const id = await liveRemoteOrderId(db, exam.id);
    return id === null ? null : orderDetail(db, access, id);
  });

  app.get('/report-requests/:id', async (req): Promise<ReportOrderDetail> => {
    const { id } = parse(idParam, req.params);
    return orderDetail(db, await authOf(req).access(), id);
  });

  app.delete('/report-requests/:id', async (req, reply) => {
    const { id } = parse(idParam, req.params);
    const access = await authOf(req).access();
    const answer = await withIdempotency(req, `report-requests/${id}/withdraw`, async () => {
      await withdrawOrder(deps, access, id);
      return { status: 200, body: await orderDetail(db, access, id) };
    }, db);
    reply.status(answer.status);
    return answer.body;
  });

  for (const path of ['/payments/page-query', '/orders/page-query']) {
    app.post(path, async (req) => orderPage(db, await authOf(req).access(), parse(orderPageQuery, req.body)));
  }

  app.get('/orders/:id', async (req): Promise<ReportOrderDetail> => {
    const { id } = parse(idParam, req.params);
    return orderDetail(db, await authOf(req).access(), id);
  });

  // Areas §5: at most 1000 order rows, counted before anything is read.
  app.post('/payments/export-excel', async (req, reply) => {
    const input = parse(orderExportInput, req.body);
    const access = await authOf(req).access();
    const where = whereOf(orderScope(access), input.filters);
    const count = where ? await countOrders(db, where, ORDER_EXPORT_MAX) : { total: 0, totalIsEstimate: false };
    if (count.totalIsEstimate) {
      throw new ApiError('ExportTooLarge', `At most ${ORDER_EXPORT_MAX} rows can be exported`, { max: ORDER_EXPORT_MAX, total: count.total });
    }
    const rows = where ? await listOrders(db, where, input.sorts, ORDER_EXPORT_MAX, 0) : [];
    const file = await orderWorkbook(rows, input.lang, input.timeZone ?? SERVER_TIME_ZONE);
    const stamp = deps.clock.now().toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
    return reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename="orders-${stamp}.xlsx"`)
      .send(file);
  });
}
