import { eq } from 'drizzle-orm';
import * as t from '../../../server/db/schema';
import { unique } from '../../support/accounts';
import type { TestServer } from '../../support/server';
import { signedIn, type MatrixRow } from './types';

/**
 * HL7 results out (server/hl7/outbound/routes.ts): the hospital's admins (admin as group admin, orgadmin as its
 * admin) only, reads included — the outbox shows patients' reports and the destination the hospital's network; the
 * other members 403. The destination is written switched off, so no row of the matrix sends anything.
 */
const admins = (ok = 200) => signedIn(403, { admin: ok });
const hospital = ({ s }: { s: TestServer }) => s.ids.hospitalId;

/** A dead letter of one of the hospital's reports, for each role's resend. */
async function deadLetter(s: TestServer) {
  const [report] = await s.db.db.select({ id: t.reports.id, examId: t.reports.examId }).from(t.reports)
    .where(eq(t.reports.bucketId, s.ids.hospitalId)).limit(1);
  if (!report) throw new Error('the demo hospital has no report');
  const [row] = await s.db.db.insert(t.hl7Outbox).values({
    bucketId: s.ids.hospitalId, reportId: report.id, reportVersion: 1, examId: report.examId, resultStatus: 'F',
    controlId: unique('MX').replace(/[^A-Za-z0-9]/g, '').slice(0, 20), message: 'MSH|^~\\&|RADWS\r', status: 'dead', attempts: 3,
  }).returning();
  return { rowId: row!.id };
}

export const rows: MatrixRow[] = [
  { method: 'GET', route: '/buckets/:id/hl7/destination', path: (c) => `/buckets/${hospital(c)}/hl7/destination`, expect: admins() },
  {
    method: 'PUT', route: '/buckets/:id/hl7/destination', path: (c) => `/buckets/${hospital(c)}/hl7/destination`,
    body: () => ({
      enabled: false, host: '', port: 2575, sendingApplication: 'RADWS', sendingFacility: '', receivingApplication: '', receivingFacility: '',
      charset: 'UNICODE UTF-8', tls: false, tlsCa: null, maxAttempts: 10, ackTimeoutMs: 10000,
    }),
    expect: admins(),
  },
  { method: 'POST', route: '/buckets/:id/hl7/outbox/query', path: (c) => `/buckets/${hospital(c)}/hl7/outbox/query`, body: () => ({}), expect: admins() },
  {
    method: 'POST', route: '/buckets/:id/hl7/outbox/:rowId/resend', setup: deadLetter,
    path: (c) => `/buckets/${hospital(c)}/hl7/outbox/${c.fixture.rowId}/resend`, expect: admins(),
  },
];
