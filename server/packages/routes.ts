import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { idParam } from '../../contract/common';
import { studyPackageQuery, type StudyPackage } from '../../contract/studyPackage';
import { repackAvailableAt, type StudyPackageState } from '../../machines/studyPackage';
import { assertCan } from '../access/access';
import { authOf } from '../auth/plugin';
import type { Db } from '../db/client';
import { studyPackages } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';
import { liveExam } from '../viewer/access';
import { buildPackage } from './build';
import { lockPackage, rowFields, snapshotOfRow, step, type PackageRow } from './state';

/** The download link of a ready package lives ten minutes; asking again gives a fresh one. */
const URL_TTL_SECONDS = 600;

/**
 * GET exams/{id}/study-package?repackage (core §2 exam detail "download packaging", §4, §5): every
 * call tells the machine the time that passed, then asks for the package (or a repack); a new pack
 * is built in the background and the answer is the state right away. The app waits for running packs
 * when it closes.
 */
export async function packageRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const running = new Set<Promise<void>>();
  app.addHook('onClose', async () => { await Promise.allSettled([...running]); });

  function startBuild(examId: number, attempt: number) {
    const job = build(deps, examId, attempt).finally(() => running.delete(job));
    running.add(job);
  }

  app.get('/exams/:id/study-package', async (req): Promise<StudyPackage> => {
    const { id } = parse(idParam, req.params);
    const { repackage } = parse(studyPackageQuery, req.query);
    const auth = authOf(req);
    const exam = await liveExam(deps, id);
    assertCan(await auth.access(), 'study_package', exam.bucketId);
    const now = deps.clock.now().getTime();

    const { row, started, stale } = await deps.db.transaction(async (tx) => {
      const t = tx as unknown as Db;
      const before = await lockPackage(t, id);
      const ticked = step(snapshotOfRow(before, now), { type: 'TICK', now })!;
      const next = step(ticked, { type: repackage ? 'REPACK' : 'REQUEST', now });
      if (!next && repackage && ticked.value === 'ready') {
        const at = repackAvailableAt(ticked.context)!;
        throw new ApiError('RepackTooSoon', undefined, { retryAfter: Math.ceil((at - now) / 1000), repackAvailableAt: new Date(at).toISOString() });
      }
      const after = next ?? ticked;
      const started = after.value === 'processing' && (before?.state !== 'processing' || ticked.value !== 'processing');
      if (!before && !started) return { row: undefined, started: false, stale: null };
      const fields = rowFields(after);
      // A zip that expired or is being replaced is deleted once the new state is stored.
      const stale = before?.storageKey && (fields.state === 'expired' || started) ? before.storageKey : null;
      const values = {
        ...fields, bucketId: exam.bucketId,
        ...(started ? { attempt: (before?.attempt ?? 0) + 1, storageKey: null, size: null, fileCount: null, error: null, requestedBy: auth.account.id } : {}),
        ...(fields.state === 'expired' || fields.state === 'error' ? { storageKey: null } : {}),
        ...(fields.state === 'error' && before?.state === 'processing' ? { error: 'The pack did not finish in time' } : {}),
      };
      const [row] = before
        ? await t.update(studyPackages).set(values).where(eq(studyPackages.examId, id)).returning()
        : await t.insert(studyPackages).values({ examId: id, ...values }).returning();
      return { row, started, stale };
    });
    if (stale) await deps.storage.delete(stale);
    if (!row) throw new ApiError('OperationFailed');
    if (started) startBuild(id, row.attempt);
    return present(deps, row);
  });
}

/** Runs one pack and tells the machine how it ended; a pack overtaken by a newer attempt throws its zip away. */
async function build(deps: Deps, examId: number, attempt: number): Promise<void> {
  let result: Awaited<ReturnType<typeof buildPackage>> | null = null;
  let error: string | null = null;
  try {
    result = await buildPackage(deps, examId, attempt);
  } catch (err) {
    error = (err instanceof Error ? err.message : String(err)).slice(0, 500);
  }
  const now = deps.clock.now().getTime();
  const kept = await deps.db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const row = await lockPackage(t, examId);
    if (!row || row.attempt !== attempt) return false;
    const next = step(snapshotOfRow(row, now), { type: result ? 'PACKED' : 'FAILED', now });
    if (!next) return false;
    await t.update(studyPackages).set({
      ...rowFields(next),
      storageKey: result?.key ?? null, size: result?.size ?? null, fileCount: result?.fileCount ?? null, error,
    }).where(and(eq(studyPackages.examId, examId), eq(studyPackages.attempt, attempt)));
    return true;
  }).catch(() => false);
  if (!kept && result) await deps.storage.delete(result.key).catch(() => undefined);
}

async function present(deps: Deps, row: PackageRow): Promise<StudyPackage> {
  const ready = row.state === 'ready' && row.storageKey;
  const snapshot = snapshotOfRow(row, deps.clock.now().getTime());
  const at = repackAvailableAt(snapshot.context);
  return {
    examId: row.examId,
    state: row.state as Exclude<StudyPackageState, 'none'>,
    startedAt: row.startedAt.toISOString(),
    readyAt: row.readyAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    size: row.size,
    fileCount: row.fileCount,
    url: ready ? await deps.storage.readUrl(row.storageKey!, { expiresInSeconds: URL_TTL_SECONDS, contentType: 'application/zip', filename: `study-${row.examId}.zip` }) : null,
    urlExpires: ready ? Math.floor(deps.clock.now().getTime() / 1000) + URL_TTL_SECONDS : null,
    error: row.error,
    repackAvailableAt: row.state === 'ready' && at !== null ? new Date(at).toISOString() : null,
  };
}
