import * as t from '../../../server/db/schema';
import type { TestServer } from '../../support/server';
import { signedIn, type MatrixRow } from './types';

/**
 * The knowledge base at the demo hospital (contract/kb.ts). Read by members with a report action or template_upsert
 * (admin, orgadmin, rad1, rad2, chief); registrar and tech are members without one (403); expert is outside (404).
 * Written with template_upsert: in the demo only the hospital's admins (admin, orgadmin) hold it.
 */
const read = (ok = 200) => signedIn(403, { admin: ok, rad1: ok, rad2: ok, chief: ok, expert: 404 });
const write = (ok = 200) => signedIn(403, { admin: ok, expert: 404 });

/** A fresh folder with two texts of the hospital for each role's call, so one call does not change the next one's. */
async function freshItems(s: TestServer) {
  const bucketId = s.ids.hospitalId;
  const [dir] = await s.db.db.insert(t.kbItems).values({ bucketId, type: 'folder', name: '矩阵目录', sort: 1000 }).returning();
  const [a, b] = await s.db.db.insert(t.kbItems).values([
    { bucketId, parentId: dir!.id, type: 'text', name: '矩阵甲', sort: 1 },
    { bucketId, parentId: dir!.id, type: 'text', name: '矩阵乙', sort: 2 },
  ]).returning();
  return { dirId: dir!.id, aId: a!.id, bId: b!.id };
}

export const rows: MatrixRow[] = [
  { method: 'GET', route: '/kb-items/query', path: ({ s }) => `/kb-items/query?bucketId=${s.ids.hospitalId}`, expect: read() },
  {
    method: 'POST', route: '/kb-items', setup: freshItems,
    body: ({ s, fixture }) => ({ bucketId: s.ids.hospitalId, parentId: fixture.dirId, type: 'text', name: '矩阵新建', content: '<p>内容</p>' }), expect: write(),
  },
  { method: 'PATCH', route: '/kb-items/:id', setup: freshItems, path: ({ fixture }) => `/kb-items/${fixture.aId}`, body: () => ({ name: '矩阵改名' }), expect: write() },
  { method: 'DELETE', route: '/kb-items/:id', setup: freshItems, path: ({ fixture }) => `/kb-items/${fixture.dirId}`, expect: write() },
  {
    method: 'POST', route: '/kb-items/:id/resort', setup: freshItems, path: ({ fixture }) => `/kb-items/${fixture.bId}/resort`,
    body: () => ({ preId: null }), expect: write(),
  },
];
