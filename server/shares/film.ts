import { and, desc, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { randomInt, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { idParam } from '../../contract/common';
import {
  FILM_CODE_ALPHABET, FILM_CODE_LENGTH, FILM_SHARES_LISTED, filmShareInput, findAndVerifyInput, type FilmShare, type FilmShareItem, type FilmView,
} from '../../contract/shares';
import { VIEW_TOKEN_TTL_SECONDS } from '../../contract/viewer';
import { assertCan } from '../access/access';
import { authOf } from '../auth/plugin';
import { exams, filmShares, reports } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';
import { issue, type ViewClaims } from '../auth/permits';
import { liveExam } from '../viewer/access';
import { examHeader, organisationNames, reportContents, sharedView } from './present';
import { newLinkId } from './reportShares';
import { assertNotBlocked, count, limitRequest, RATE_RULES } from '../http/rateLimit';

type FilmRow = typeof filmShares.$inferSelect;
const linkParam = z.object({ link: z.string().min(16).max(64).regex(/^[A-Za-z0-9_-]+$/) });
/** Wrong codes for one film: five lock it for a quarter of an hour. */
const FILM_FAILURES = { max: 5, lockMs: 15 * 60_000 };

const newCode = () => Array.from({ length: FILM_CODE_LENGTH }, () => FILM_CODE_ALPHABET[randomInt(FILM_CODE_ALPHABET.length)]).join('');
const sameCode = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * Electronic film (core §2 /sf/{link} and /efilm/query, §7 film-share): an exam's images and its current
 * approved report behind a link (192 bits) and a code of 8 characters printed with the film. find-and-verify
 * takes the code with the link, or with the patient ID (the query page); either way the code must match.
 */
export async function filmRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const { db } = deps;

  app.post('/film-share/share', async (req, reply): Promise<FilmShare> => {
    const input = parse(filmShareInput, req.body);
    const auth = authOf(req);
    const exam = await liveExam(deps, input.examId);
    assertCan(await auth.access(), 'exam_get', exam.bucketId);
    const now = deps.clock.now();
    const [row] = await db.insert(filmShares).values({
      id: newLinkId(), code: newCode(), examId: exam.id, bucketId: exam.bucketId, createdBy: auth.account.id,
      expiresAt: new Date(now.getTime() + input.ttlDays * 86_400_000), created: now,
    }).returning();
    reply.status(201);
    return { link: row!.id, code: row!.code, path: `/sf/${row!.id}`, expires: Math.floor(row!.expiresAt.getTime() / 1000) };
  });

  // The exam's films (exam_get), so the code printed on an envelope can be read again and a film revoked later.
  app.get('/exams/:id/film-shares', async (req): Promise<FilmShareItem[]> => {
    const { id } = parse(idParam, req.params);
    const exam = await liveExam(deps, id);
    assertCan(await authOf(req).access(), 'exam_get', exam.bucketId);
    const rows = await db.select().from(filmShares).where(eq(filmShares.examId, exam.id)).orderBy(desc(filmShares.created), desc(filmShares.id)).limit(FILM_SHARES_LISTED);
    return rows.map((row) => ({
      link: row.id, code: row.code, path: `/sf/${row.id}`, expires: Math.floor(row.expiresAt.getTime() / 1000),
      created: row.created.toISOString(), revoked: row.revokedAt !== null,
    }));
  });

  app.post('/film-share/:link/revoke', async (req, reply) => {
    const { link } = parse(linkParam, req.params);
    const [row] = await db.select().from(filmShares).where(eq(filmShares.id, link));
    const access = await authOf(req).access();
    if (!row) throw new ApiError('NotFound');
    assertCan(access, 'exam_get', row.bucketId);
    await db.update(filmShares).set({ revokedAt: deps.clock.now() }).where(and(eq(filmShares.id, link), isNull(filmShares.revokedAt)));
    reply.status(204).send();
  });

  app.post('/film-share/find-and-verify', { config: { public: true } }, async (req): Promise<FilmView> => {
    const now = deps.clock.now();
    await limitRequest(db, `film:${req.ip}`, now);
    await assertNotBlocked(db, [`film-fail:${req.ip}`], now);
    const input = parse(findAndVerifyInput, req.body);
    const fail = async (row?: FilmRow): Promise<never> => {
      await count(db, `film-fail:${req.ip}`, now, RATE_RULES.publicFailures);
      if (row) {
        const failures = row.failedAttempts + 1;
        await db.update(filmShares).set(failures >= FILM_FAILURES.max
          ? { failedAttempts: 0, lockedUntil: new Date(now.getTime() + FILM_FAILURES.lockMs) }
          : { failedAttempts: failures }).where(eq(filmShares.id, row.id));
      }
      throw new ApiError('NotFound');
    };

    let row: FilmRow | undefined;
    if (input.link) {
      [row] = await db.select().from(filmShares).where(eq(filmShares.id, input.link));
      if (!row) return fail();
      if (row.lockedUntil && row.lockedUntil > now) {
        throw new ApiError('TooManyAttempts', undefined, { retryAfter: Math.ceil((row.lockedUntil.getTime() - now.getTime()) / 1000) });
      }
      if (!sameCode(row.code, input.code)) return fail(row);
    } else {
      const rows = await db.select({ film: filmShares }).from(filmShares).innerJoin(exams, eq(exams.id, filmShares.examId))
        .where(and(eq(filmShares.code, input.code), eq(exams.patientId, input.patientId!))).orderBy(desc(filmShares.created)).limit(1);
      row = rows[0]?.film;
      if (!row) return fail();
    }
    if (row.revokedAt) throw new ApiError('LinkExpired', undefined, { reason: 'revoked' });
    if (row.expiresAt <= now) throw new ApiError('LinkExpired', undefined, { reason: 'expired' });
    if (row.failedAttempts) await db.update(filmShares).set({ failedAttempts: 0 }).where(eq(filmShares.id, row.id));

    const [exam] = await db.select().from(exams).where(eq(exams.id, row.examId));
    if (!exam || exam.deletedTime) throw new ApiError('LinkExpired', undefined, { reason: 'withdrawn' });
    const [report] = await db.select().from(reports).where(and(eq(reports.examId, exam.id), isNull(reports.deletedTime))).orderBy(desc(reports.id)).limit(1);
    const shown = report ? await sharedView(db, report, { sharedAt: row.created, approvedTimeAtShare: null }) : { state: 'pending' as const };
    const organisation = (await organisationNames(db, [exam.bucketId])).get(exam.bucketId) ?? '';
    // The view permit dies with the film: revoking it (or its expiry) ends the images too (server/auth/permits.ts).
    const view = issue<ViewClaims>(deps, 'view', { e: exam.id, by: { k: 'film', f: row.id } }, VIEW_TOKEN_TTL_SECONDS, Math.floor(row.expiresAt.getTime() / 1000));
    return {
      exam: examHeader(exam, organisation),
      state: shown.state,
      report: report && shown.state === 'final' ? (await reportContents(db, [report])).get(report.id)! : null,
      viewer: { seriesPath: `exams/${exam.id}/series`, token: view.token, expires: view.expires },
      expires: Math.floor(row.expiresAt.getTime() / 1000),
    };
  });
}
