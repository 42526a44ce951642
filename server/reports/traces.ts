import { and, asc, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { idParam } from '../../contract/common';
import { diffTraceQuery, traceParams, type TraceDiff, type TraceSnapshot, type TraceSummary, type TraceView } from '../../contract/reports';
import { assertCan } from '../access/access';
import { authOf } from '../auth/plugin';
import type { Db } from '../db/client';
import { accounts, reportTraces } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';
import { diffSnapshots } from './diff';
import { loadReport } from './load';

type TraceRow = typeof reportTraces.$inferSelect;

async function summaries(db: Db, rows: TraceRow[]): Promise<TraceSummary[]> {
  const ids = [...new Set(rows.map((r) => r.accountId).filter((id): id is number => id !== null))];
  const names = new Map(ids.length ? (await db.select({ id: accounts.id, name: accounts.name }).from(accounts).where(inArray(accounts.id, ids))).map((a) => [a.id, a.name]) : []);
  return rows.map((r) => ({
    id: r.id, reportId: r.reportId, action: r.action,
    account: r.accountId === null ? null : { id: r.accountId, name: names.get(r.accountId) ?? '' },
    fromStatus: r.fromStatus, toStatus: r.toStatus, reason: r.reason, created: r.created.toISOString(),
  }));
}

/** Traces need report_trace in the report's organisation; reports elsewhere are 404. */
async function traceableReport(db: Db, req: Parameters<typeof authOf>[0], id: number) {
  const loaded = await loadReport(db, id);
  if (!loaded) throw new ApiError('NotFound');
  assertCan(await authOf(req).access(), 'report_trace', loaded.row.bucketId);
  return loaded;
}

async function traceOf(db: Db, reportId: number, traceId: number): Promise<TraceRow> {
  const [row] = await db.select().from(reportTraces).where(and(eq(reportTraces.id, traceId), eq(reportTraces.reportId, reportId)));
  if (!row) throw new ApiError('NotFound');
  return row;
}

export async function traceRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const { db } = deps;

  app.get('/reports/:id/report-trace', async (req) => {
    const { id } = parse(idParam, req.params);
    await traceableReport(db, req, id);
    const rows = await db.select().from(reportTraces).where(eq(reportTraces.reportId, id)).orderBy(asc(reportTraces.id));
    const items = await summaries(db, rows);
    return { items, total: items.length };
  });

  app.get('/reports/:id/traces/:traceId', async (req): Promise<TraceView> => {
    const { id, traceId } = parse(traceParams, req.params);
    await traceableReport(db, req, id);
    const row = await traceOf(db, id, traceId);
    const [summary] = await summaries(db, [row]);
    return { ...summary!, snapshot: row.snapshot as TraceSnapshot };
  });

  app.get('/reports/:id/diff-trace', async (req): Promise<TraceDiff> => {
    const { id } = parse(idParam, req.params);
    const { fromId, toId } = parse(diffTraceQuery, req.query);
    await traceableReport(db, req, id);
    const from = await traceOf(db, id, fromId);
    const to = await traceOf(db, id, toId);
    const [fromSummary, toSummary] = await summaries(db, [from, to]);
    return { from: fromSummary!, to: toSummary!, fields: diffSnapshots(from.snapshot as Partial<TraceSnapshot>, to.snapshot as Partial<TraceSnapshot>) };
  });
}
