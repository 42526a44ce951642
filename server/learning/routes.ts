import { and, asc, count, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  LEARNING_POSITION_SLACK_SEC, learningListQuery, learningParam, learningProgressInput,
  type Learning, type LearningPage, type LearningProgress,
} from '../../contract/learning';
import { authOf } from '../auth/plugin';
import type { Db } from '../db/client';
import { learningProgress, learnings } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { containsPattern } from '../http/pageQuery';
import { parse } from '../http/validate';

type LearningRow = typeof learnings.$inferSelect;
type ProgressRow = typeof learningProgress.$inferSelect;

/**
 * Learning videos (areas §2 /learning, §7 "Learnings: list and detail"; docs/decisions.md "Learning"). The list and
 * the detail are public: anyone may watch. With a valid token they carry that account's progress. Progress is
 * read and written by the signed-in account for itself only (401 otherwise); it is personal, not an organisation's,
 * so there is no organisation check and no audit entry (watching a video changes nothing anyone else sees).
 */
export async function learningRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const { db } = deps;

  app.get('/learnings', { config: { public: true } }, async (req): Promise<LearningPage> => {
    const query = parse(learningListQuery, req.query);
    const where: SQL[] = [];
    if (query.q) {
      const pattern = containsPattern(query.q);
      where.push(or(ilike(learnings.title, pattern), ilike(learnings.description, pattern))!);
    }
    if (query.category) where.push(eq(learnings.category, query.category));
    const condition = where.length ? and(...where) : undefined;
    const [rows, [{ total }], categories] = await Promise.all([
      db.select().from(learnings).where(condition).orderBy(asc(learnings.sort), asc(learnings.id)).offset(query.skip).limit(query.limit),
      db.select({ total: count() }).from(learnings).where(condition),
      db.selectDistinct({ category: learnings.category }).from(learnings).where(sql`${learnings.category} is not null`).orderBy(asc(learnings.category)),
    ]);
    const accountId = req.auth?.account.id ?? null;
    const progress = accountId === null || rows.length === 0 ? new Map<number, ProgressRow>() : await progressOf(db, accountId, rows.map((r) => r.id));
    return {
      items: rows.map((row) => present(row, accountId === null ? null : progressValue(row.id, progress.get(row.id)))),
      total,
      categories: categories.map((c) => c.category!).filter(Boolean),
    };
  });

  app.get('/learnings/:id', { config: { public: true } }, async (req): Promise<Learning> => {
    const row = await loadLearning(db, parse(learningParam, req.params).id);
    const accountId = req.auth?.account.id ?? null;
    if (accountId === null) return present(row, null);
    const progress = await progressOf(db, accountId, [row.id]);
    return present(row, progressValue(row.id, progress.get(row.id)));
  });

  app.get('/learnings/:id/progress', async (req): Promise<LearningProgress> => {
    const { account } = authOf(req);
    const row = await loadLearning(db, parse(learningParam, req.params).id);
    const progress = await progressOf(db, account.id, [row.id]);
    return progressValue(row.id, progress.get(row.id));
  });

  app.put('/learnings/:id/progress', async (req): Promise<LearningProgress> => {
    const { account } = authOf(req);
    const { id } = parse(learningParam, req.params);
    const input = parse(learningProgressInput, req.body);
    const row = await loadLearning(db, id);
    if (row.durationSec > 0 && input.positionSec > row.durationSec + LEARNING_POSITION_SLACK_SEC) {
      throw new ApiError('ParamsError', undefined, { fields: [{ path: 'positionSec', message: `at most the video's length (${row.durationSec} s)` }] });
    }
    const positionSec = row.durationSec > 0 ? Math.min(input.positionSec, row.durationSec) : input.positionSec;
    const now = deps.clock.now();
    // One statement: two writes racing (a save every 10 s and the one sent on leaving) cannot lose `completed`.
    const [saved] = await db.insert(learningProgress)
      .values({ accountId: account.id, learningId: id, positionSec, completed: input.completed, updated: now })
      .onConflictDoUpdate({
        target: [learningProgress.accountId, learningProgress.learningId],
        set: { positionSec, completed: sql`${learningProgress.completed} or excluded.completed`, updated: now },
      })
      .returning();
    return progressValue(id, saved);
  });
}

async function loadLearning(db: Db, id: number): Promise<LearningRow> {
  const [row] = await db.select().from(learnings).where(eq(learnings.id, id));
  if (!row) throw new ApiError('NotFound');
  return row;
}

async function progressOf(db: Db, accountId: number, ids: number[]): Promise<Map<number, ProgressRow>> {
  const rows = await db.select().from(learningProgress)
    .where(and(eq(learningProgress.accountId, accountId), inArray(learningProgress.learningId, ids)));
  return new Map(rows.map((r) => [r.learningId, r]));
}

function progressValue(learningId: number, row: ProgressRow | undefined): LearningProgress {
  return { learningId, positionSec: row?.positionSec ?? 0, completed: row?.completed ?? false, updated: row?.updated?.toISOString() ?? null };
}

function present(row: LearningRow, progress: LearningProgress | null): Learning {
  return {
    id: row.id, title: row.title, description: row.description, videoUrl: row.videoUrl, posterUrl: row.posterUrl,
    durationSec: row.durationSec, category: row.category, progress,
  };
}
