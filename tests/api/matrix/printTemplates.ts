import * as t from '../../../server/db/schema';
import { demoLogo, demoStamp } from '../../../server/seed/printImages';
import { unique } from '../../support/accounts';
import { form } from '../../support/files';
import type { TestServer } from '../../support/server';
import { signedIn, type MatrixCall, type MatrixRow } from './types';

/**
 * Print templates of the demo hospital (server/organizations/printTemplates.ts): read by its members (expert, a group
 * member outside the hospital, 403), written by its admins (admin as group admin, orgadmin as organisation admin).
 * Every write acts on a fresh template, so no row changes the seeded default that the print rows rely on.
 */
const read = signedIn(403, { admin: 200, rad1: 200, rad2: 200, chief: 200, registrar: 200, tech: 200 });
const write = (ok = 200) => signedIn(403, { admin: ok });
const base = '/buckets/:id/print-templates';
const list = ({ s }: { s: TestServer }) => `/buckets/${s.ids.hospitalId}/print-templates`;
const item = (suffix = '') => (c: MatrixCall) => `/buckets/${c.s.ids.hospitalId}/print-templates/${c.fixture.templateId}${suffix}`;

async function template(s: TestServer) {
  const [row] = await s.db.db.insert(t.printTemplates).values({ bucketId: s.ids.hospitalId, name: unique('矩阵打印模板'), modality: 'XA' }).returning();
  return { templateId: row!.id };
}

export const rows: MatrixRow[] = [
  { method: 'GET', route: base, path: list, expect: read },
  { method: 'POST', route: base, path: list, body: () => ({ name: unique('矩阵模板'), titles: ['报告单'] }), expect: write(201) },
  { method: 'GET', route: `${base}/:templateId`, setup: template, path: item(), expect: read },
  { method: 'PUT', route: `${base}/:templateId`, setup: template, path: item(), body: () => ({ name: unique('矩阵改名'), qrMode: 'static', qrText: 'ABC' }), expect: write() },
  { method: 'DELETE', route: `${base}/:templateId`, setup: template, path: item(), expect: write(204) },
  { method: 'POST', route: `${base}/:templateId/default`, setup: template, path: item('/default'), expect: write() },
  { method: 'PUT', route: `${base}/:templateId/logo`, setup: template, path: item('/logo'), body: () => form(demoLogo(), 'logo.png', 'image/png'), expect: write() },
  { method: 'DELETE', route: `${base}/:templateId/logo`, setup: template, path: item('/logo'), expect: write() },
  { method: 'PUT', route: `${base}/:templateId/stamp`, setup: template, path: item('/stamp'), body: () => form(demoStamp(), 'stamp.png', 'image/png'), expect: write() },
  { method: 'DELETE', route: `${base}/:templateId/stamp`, setup: template, path: item('/stamp'), expect: write() },
];
