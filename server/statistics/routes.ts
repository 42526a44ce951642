import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  OVERVIEW_STATS, STAT_NAMES, STAT_PATHS, statExportInput, statQuery, statScopeQuery,
  type StatGroupsAnswer, type StatName, type StatQueryParsed, type StatResult, type StatScopeAnswer,
} from '../../contract/statistics';
import { dayIn } from '../../contract/days';
import { authOf } from '../auth/plugin';
import type { Db } from '../db/client';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';
import { statWorkbook } from './export';
import { consulStat } from './queries/consul';
import { groupPaymentStat } from './queries/groupPayment';
import { modalityStat } from './queries/modality';
import { noteTakerStat } from './queries/noteTaker';
import { overviewBucketStat, overviewTotalStat, overviewUserStat } from './queries/overview';
import { registrarStat } from './queries/registrar';
import { remoteReportStat } from './queries/remoteReport';
import { reportStat } from './queries/report';
import { reportPositiveStat } from './queries/reportPositive';
import { studyStat } from './queries/study';
import { statGroups, statScope } from './scope';
import type { StatQueryFn } from './types';
import { windowOf } from './window';

/** Each statistic's query (server/statistics/queries): SQL aggregates over the area's own tables. */
const QUERIES: Record<StatName, StatQueryFn> = {
  study: studyStat, modality: modalityStat, report: reportStat, 'report-positive': reportPositiveStat, 'note-taker': noteTakerStat,
  registrar: registrarStat, 'remote-report': remoteReportStat, 'group-payment': groupPaymentStat, consul: consulStat,
  'overview-total': overviewTotalStat, 'overview-user': overviewUserStat, 'overview-bucket': overviewBucketStat,
};

/**
 * The statistics area (areas §7 "Statistics"): one endpoint per statistic, each answering a StatResult for a group's
 * allowed organisations over a period (contract/statistics.ts), the export of any of them as .xlsx, and the two
 * questions the page opens with (which groups, which organisations).
 */
export async function statisticsRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const { db } = deps;

  async function answer(req: FastifyRequest, name: StatName, input: StatQueryParsed): Promise<StatResult> {
    const access = await authOf(req).access();
    const scope = await statScope(db, access, input.groupId, input.bucketIds);
    if (OVERVIEW_STATS.includes(name) && !scope.allowOverview) throw new ApiError('Forbidden', 'The overview is not enabled for this group');
    const window = windowOf(name, input, scope, deps.clock.now());
    // One read-only transaction per question so its settings stay with it: no JIT (PostgreSQL compiled the year's
    // aggregates for 120 ms of a 1.2 s answer and won nothing back), room to sort and hash in memory (the default
    // 4 MB spilled a year's medians to disk), and random reads priced as on an SSD — else, given that memory, the
    // planner hashed all 800,000 reports to join a month's 14,000 exams (200 ms instead of 40).
    const body = await db.transaction(async (tx) => {
      await tx.execute(sql`set transaction read only`);
      await tx.execute(sql`set local jit = off`);
      await tx.execute(sql`set local work_mem = '64MB'`);
      await tx.execute(sql`set local random_page_cost = 1.1`);
      return QUERIES[name]({ db: tx as unknown as Db, scope, window, input });
    });
    return { name, range: { from: window.from, to: window.to, unit: window.unit, timeZone: scope.timeZone }, periods: window.periods, ...body };
  }

  app.get('/statistics/groups', async (req): Promise<StatGroupsAnswer> => statGroups(db, await authOf(req).access()));

  app.get('/statistics/scope', async (req): Promise<StatScopeAnswer> => {
    const { groupId } = parse(statScopeQuery, req.query);
    const scope = await statScope(db, await authOf(req).access(), groupId);
    return {
      groupId, groupName: scope.groupName, timeZone: scope.timeZone, today: dayIn(deps.clock.now(), scope.timeZone),
      allowOverview: scope.allowOverview,
      buckets: scope.bucketIds.map((id) => ({ id, name: scope.names.get(id)!, timeZone: scope.zones.get(id)! })),
    };
  });

  for (const name of STAT_NAMES) {
    app.post(`/${STAT_PATHS[name]}`, async (req) => answer(req, name, parse(statQuery, req.body)));
    app.get(`/${STAT_PATHS[name]}`, async (req) => answer(req, name, parse(statQuery, req.query)));
  }

  app.post('/statistics/export', async (req, reply) => {
    const { name, lang, ...question } = parse(statExportInput, req.body);
    const result = await answer(req, name, question);
    const file = await statWorkbook(result, lang);
    const filename = `statistics-${name}-${result.range.from.replace(/-/g, '')}-${result.range.to.replace(/-/g, '')}.xlsx`;
    return reply.header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename="${filename}"`).send(file);
  });
}
