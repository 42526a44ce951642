import type { FastifyInstance } from 'fastify';
import { bucketsWith, type Access } from '../access/access';
import { idParam } from '../../contract/common';
import { EXAM_EXPORT_MAX, NEW_EXAM_WINDOW_DAYS } from '../../contract/constants';
import {
  examDetailQuery, examExportInput, examNewlyQuery, examPageQuery, examUpdateInput, pastExamsQuery,
  type ExamCount, type ExamDetail, type ExamListItem, type ExamPage,
} from '../../contract/exams';
import { authOf } from '../auth/plugin';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';
import { colourRuleRoutes } from './colourRules';
import { examDetail } from './detail';
import { examWorkbook } from './export';
import { buildQuery, countOf, pageOf, withPageFacts } from './query';
import { examPageSchema } from './pageSchema';
import { pageShape, preparedPage } from './prepared';
import { deleteExam, readableExam, recoverExam, updateExam } from './record';
import { coExams, pastCount, pastExams } from './related';
import { readableBuckets } from './scope';

/** Counted exactly by exams/newly: far above a week's exams of the busiest site. */
const NEWLY_COUNT_MAX = 200_000;
const SERVER_TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The exam area (core §7 "Exams"): the worklist query and count, one exam, its detail, past and co-exams, export, polling. */
export async function examRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  // The page is written from its schema (server/exams/pageSchema.ts: every field of ExamListItem, in toListItem's order).
  const pageAnswer = { schema: { response: { 200: examPageSchema } } };

  /**
   * One page for `access`. `checked`: only a prepared shape's page is read, and it carries the caller's account as its
   * own statement read it (`check`; undefined when nothing was read that could carry it).
   */
  async function listPage(input: ReturnType<typeof examPageQuery.parse>, access: Access, checked: boolean): Promise<{ page: ExamPage; check?: string | null }> {
    const scope = readableBuckets(access);
    const q = await buildQuery(deps.db, scope, input, { accountId: access.accountId, now: deps.clock.now() });
    if (!q) return { page: { items: [], total: 0, totalIsEstimate: false } };
    // The worklist's frequent shapes (whole scope, snapshot, one quick filter) run as prepared statements; a shape has
    // no bucketId filter, so its organisations are the scope, as buildQuery's.
    const shape = pageShape(input.filters, input.sorts);
    if (checked && !shape) return { page: { items: [], total: 0, totalIsEstimate: false } };
    const page = shape
      ? preparedPage(deps.db, shape, scope, access.accountId, input.skip, input.limit, access, { checked })
      : pageOf(deps.db, q, input.skip, input.limit, access).then((items) => ({ items, check: undefined }));
    const [{ items, check }, count] = await Promise.all([page, countOf(deps.db, q)]);
    return { page: { items, ...withPageFacts(count, input.skip, input.limit, items.length) }, check };
  }

  // The worklist's page checks the caller's account in its own statement (Auth.pending): the rights it was built with
  // are those of the account's last request, and the page is answered only when the statement read the same; anything
  // else (a changed role, a disabled account, an empty page, a page of no prepared shape) reads the account first and
  // builds the page again. A dead session is a 401 before any 400 of the body.
  app.post('/exams/page-query', { ...pageAnswer, config: { checkedInStatement: true } }, async (req): Promise<ExamPage> => {
    const auth = authOf(req);
    if (auth.pending) {
      try {
        const tried = await listPage(parse(examPageQuery, req.body), await auth.access(), true);
        if (auth.pending.matches(tried.check)) return tried.page;
      } catch (err) {
        await auth.pending.confirm();
        throw err;
      }
      const confirmed = await auth.pending.confirm();
      return (await listPage(parse(examPageQuery, req.body), await confirmed.access(), false)).page;
    }
    return (await listPage(parse(examPageQuery, req.body), await auth.access(), false)).page;
  });

  app.post('/exams/query/count', async (req): Promise<ExamCount> => {
    const input = parse(examPageQuery, req.body);
    const access = await authOf(req).access();
    return countOf(deps.db, await buildQuery(deps.db, readableBuckets(access), input, { accountId: access.accountId, now: deps.clock.now() }));
  });

  // Core §7 "Polling": the newest exams, five at a time, never further back than the 7-day window (a client
  // asking for more is narrowed to it, so the poll of every open workstation stays cheap).
  app.post('/exams/newly', pageAnswer, async (req): Promise<ExamPage> => {
    const input = parse(examNewlyQuery, req.body);
    const access = await authOf(req).access();
    const now = deps.clock.now();
    const windowStart = new Date(now.getTime() - NEW_EXAM_WINDOW_DAYS * 86_400_000).toISOString();
    // A line booked at the desk is an exam from its booking, but nothing can be read until it is performed or has
    // images (contract/reportable.ts): it is news for a radiologist only then.
    const filters = [
      ...input.filters,
      { field: 'created', operator: 'gte' as const, values: [windowStart] },
      { field: 'reportable', operator: 'equal' as const, values: [true] },
    ];
    const q = await buildQuery(deps.db, readableBuckets(access), { filters, sorts: input.sorts }, { accountId: access.accountId, now });
    if (!q) return { items: [], total: 0, totalIsEstimate: false };
    // The toast's pending count is exact (an estimate drifted between rounds with nothing new); the 7-day window
    // bounds what is counted.
    const [items, count] = await Promise.all([pageOf(deps.db, q, input.skip, input.limit, access), countOf(deps.db, q, { exact: true, exactLimit: NEWLY_COUNT_MAX })]);
    return { items, ...withPageFacts(count, input.skip, input.limit, items.length) };
  });

  app.get('/exams/:id', async (req): Promise<ExamListItem> => {
    const { id } = parse(idParam, req.params);
    return readableExam(deps, await authOf(req).access(), id);
  });

  app.post('/exams/:id', async (req): Promise<ExamListItem> => {
    const { id } = parse(idParam, req.params);
    const input = parse(examUpdateInput, req.body);
    return updateExam(deps, await authOf(req).access(), id, input);
  });

  app.get('/exams/:id/detail', async (req): Promise<ExamDetail> => {
    const { id } = parse(idParam, req.params);
    const { reportId } = parse(examDetailQuery, req.query);
    const exam = await readableExam(deps, await authOf(req).access(), id);
    return examDetail(deps.db, exam, reportId);
  });

  app.delete('/exams/:id/delete', async (req, reply) => {
    const { id } = parse(idParam, req.params);
    await deleteExam(deps, await authOf(req).access(), id);
    return reply.status(204).send();
  });

  app.post('/exams/:id/recover', async (req): Promise<ExamListItem> => {
    const { id } = parse(idParam, req.params);
    return recoverExam(deps, await authOf(req).access(), id);
  });

  app.post('/exams/:id/past', async (req): Promise<{ items: ExamListItem[]; total: number }> => {
    const { id } = parse(idParam, req.params);
    const { skip, limit } = parse(pastExamsQuery, req.body);
    const access = await authOf(req).access();
    const exam = await readableExam(deps, access, id);
    const [items, total] = await Promise.all([pastExams(deps.db, exam, skip, limit, access), pastCount(deps.db, exam)]);
    return { items, total };
  });

  app.post('/exams/:id/past/count', async (req): Promise<{ total: number }> => {
    const { id } = parse(idParam, req.params);
    const exam = await readableExam(deps, await authOf(req).access(), id);
    return { total: await pastCount(deps.db, exam) };
  });

  app.get('/exams/:id/co-exams', async (req): Promise<{ items: ExamListItem[]; total: number }> => {
    const { id } = parse(idParam, req.params);
    const access = await authOf(req).access();
    const exam = await readableExam(deps, access, id);
    const items = await coExams(deps.db, exam, access);
    return { items, total: items.length };
  });

  // Core §5: at most 3000 rows, counted before anything is read; only organisations where the caller may export.
  app.post('/exports/exams', async (req, reply) => {
    const input = parse(examExportInput, req.body);
    const access = await authOf(req).access();
    const readable = new Set(readableBuckets(access));
    const scope = bucketsWith(access, 'export_exams').filter((id) => readable.has(id));
    if (scope.length === 0) throw new ApiError('Forbidden');
    const now = deps.clock.now();
    const q = await buildQuery(deps.db, scope, input, { accountId: access.accountId, now });
    const { total } = await countOf(deps.db, q, { exactLimit: EXAM_EXPORT_MAX, exact: true });
    if (total > EXAM_EXPORT_MAX) throw new ApiError('ExportTooLarge', undefined, { max: EXAM_EXPORT_MAX });
    const rows = q ? await pageOf(deps.db, q, 0, EXAM_EXPORT_MAX) : [];
    const file = await examWorkbook(rows, input.lang, input.timeZone ?? SERVER_TIME_ZONE);
    const stamp = now.toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
    return reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename="exams-${stamp}.xlsx"`)
      .send(file);
  });

  await app.register(colourRuleRoutes, { deps });
}
