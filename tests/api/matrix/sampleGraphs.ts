import * as t from '../../../server/db/schema';
import { unique } from '../../support/accounts';
import { form, png } from '../../support/files';
import type { TestServer } from '../../support/server';
import { signedIn, type MatrixRow } from './types';

/**
 * Sample graphs (contract/sampleGraphs.ts) of the demo hospital: its members read (expert, outside it, 404); writes
 * need manage_sample_graph, which only its administrators hold among the demo accounts (admin, orgadmin); the other
 * members 403.
 */
const read = signedIn(200, { expert: 404 });
const write = (ok: number) => signedIn(403, { admin: ok, expert: 404 });

async function graph(s: TestServer) {
  const [row] = await s.db.db.insert(t.sampleGraphs).values({ bucketId: s.ids.hospitalId, name: unique('矩阵图'), url: `sample-graphs/${s.ids.hospitalId}/${unique('m')}.png` }).returning();
  return { id: row!.id };
}

export const rows: MatrixRow[] = [
  { method: 'GET', route: '/sample-graphs/query', path: ({ s }) => `/sample-graphs/query?bucketId=${s.ids.hospitalId}`, expect: read },
  {
    method: 'POST', route: '/sample-graphs', body: ({ s }) => form(png(16, 16), 'g.png', 'image/png', { bucketId: String(s.ids.hospitalId), name: unique('矩阵') }),
    expect: write(201),
  },
  { method: 'PATCH', route: '/sample-graphs/:id', setup: graph, path: ({ fixture }) => `/sample-graphs/${fixture.id}`, body: () => ({ points: [{ x: 0.5, y: 0.5, color: '#e03131' }] }), expect: write(200) },
  { method: 'POST', route: '/sample-graphs/:id/resort', setup: graph, path: ({ fixture }) => `/sample-graphs/${fixture.id}/resort`, body: () => ({ preId: null }), expect: write(200) },
  { method: 'DELETE', route: '/sample-graphs/:id', setup: graph, path: ({ fixture }) => `/sample-graphs/${fixture.id}`, expect: write(204) },
];
