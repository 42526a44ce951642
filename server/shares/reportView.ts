import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  APPROVED_STATUSES, VERIFY_FIELDS, examReportsQuery, orgCodeParam, reportViewInput, verifiesInput,
  type OrgVerifyConfig, type PatientReport, type PatientReports,
} from '../../contract/shares';
import type { Db } from '../db/client';
import { buckets, exams, reportPublications, reports } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';
import { examHeader, organisationNames, reportContents } from './present';
import { assertNotBlocked, count, limitRequest, RATE_RULES } from '../http/rateLimit';

const pub = { config: { public: true } };

/**
 * Patient-facing report lists (docs/decisions.md "Images"):
 *  - yyp/report-view (GET query or POST body {patientId, serviceRequestId}): both ids must name the same
 *    exam; the answer is that patient's approved reports in that exam's organisation.
 *  - integration/exam-reports?orgCode&verifies: {patientId, patientName, patientDob} must match an exam
 *    of the organisation; the answer is the patient's reports that were published and are approved now.
 * A failed verification is 404 with nothing else said, counted per address (10 in 15 minutes → 429).
 */
export async function reportViewRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const { db } = deps;

  async function guard(req: FastifyRequest, scope: string): Promise<Date> {
    const now = deps.clock.now();
    await limitRequest(db, `${scope}:${req.ip}`, now);
    await assertNotBlocked(db, [`${scope}-fail:${req.ip}`], now);
    return now;
  }

  async function refuse(req: FastifyRequest, scope: string, now: Date): Promise<never> {
    await count(db, `${scope}-fail:${req.ip}`, now, RATE_RULES.publicFailures);
    throw new ApiError('NotFound');
  }

  const reportView = async (req: FastifyRequest, data: unknown): Promise<PatientReports> => {
    const now = await guard(req, 'report-view');
    const { patientId, serviceRequestId } = parse(reportViewInput, data);
    const [match] = await db.select({ bucketId: exams.bucketId }).from(exams)
      .where(and(eq(exams.patientId, patientId), eq(exams.serviceRequestId, serviceRequestId), isNull(exams.deletedTime))).limit(1);
    if (!match) return refuse(req, 'report-view', now);
    return { items: await approvedReports(db, match.bucketId, patientId, { publishedOnly: false }) };
  };
  app.get('/yyp/report-view', pub, (req) => reportView(req, req.query));
  app.post('/yyp/report-view', pub, (req) => reportView(req, req.body));

  app.get('/integration/org-verify-configs/:orgCode', pub, async (req): Promise<OrgVerifyConfig> => {
    await limitRequest(db, `org-list:${req.ip}`, deps.clock.now());
    const { orgCode } = parse(orgCodeParam, req.params);
    const [bucket] = await db.select({ name: buckets.name, code: buckets.code }).from(buckets).where(eq(buckets.code, orgCode));
    if (!bucket) throw new ApiError('NotFound');
    return { orgCode: bucket.code, organisation: bucket.name, fields: [...VERIFY_FIELDS] };
  });

  app.get('/integration/exam-reports', pub, async (req): Promise<PatientReports> => {
    const now = await guard(req, 'org-list');
    const { orgCode, verifies } = parse(examReportsQuery, req.query);
    let decoded: unknown;
    try { decoded = JSON.parse(verifies); } catch { throw new ApiError('ParamsError', undefined, { fields: [{ path: 'verifies', message: 'not JSON' }] }); }
    const v = parse(verifiesInput, decoded);
    const [bucket] = await db.select({ id: buckets.id }).from(buckets).where(eq(buckets.code, orgCode));
    if (!bucket) return refuse(req, 'org-list', now);
    // Names compare without case and inner spacing ("Wang Xiao Dong" = "wang xiaodong"); the ID and birth date exactly.
    const [match] = await db.select({ id: exams.id }).from(exams).where(and(
      eq(exams.bucketId, bucket.id), eq(exams.patientId, v.patientId), eq(exams.patientDob, v.patientDob), isNull(exams.deletedTime),
      sql`lower(regexp_replace(${exams.patientName}, '\\s+', '', 'g')) = lower(regexp_replace(${v.patientName}, '\\s+', '', 'g'))`,
    )).limit(1);
    if (!match) return refuse(req, 'org-list', now);
    return { items: await approvedReports(db, bucket.id, v.patientId, { publishedOnly: true }) };
  });
}

const LIST_MAX = 50;

/** The patient's approved reports in one organisation, newest exam first. */
async function approvedReports(db: Db, bucketId: number, patientId: string, opts: { publishedOnly: boolean }): Promise<PatientReport[]> {
  const base = db.select({ report: reports, exam: exams }).from(reports).innerJoin(exams, eq(exams.id, reports.examId));
  const conditions = and(
    eq(exams.bucketId, bucketId), eq(exams.patientId, patientId), isNull(exams.deletedTime), isNull(reports.deletedTime),
    inArray(reports.status, [...APPROVED_STATUSES]),
  );
  const rows = opts.publishedOnly
    ? await base.innerJoin(reportPublications, eq(reportPublications.reportId, reports.id)).where(conditions).orderBy(sql`${exams.examTime} desc`, asc(reports.id)).limit(LIST_MAX)
    : await base.where(conditions).orderBy(sql`${exams.examTime} desc`, asc(reports.id)).limit(LIST_MAX);
  const names = await organisationNames(db, [bucketId]);
  const contents = await reportContents(db, rows.map((r) => r.report));
  return rows.map((r) => ({ exam: examHeader(r.exam, names.get(bucketId) ?? ''), report: contents.get(r.report.id)! }));
}

