import { asc } from 'drizzle-orm';
import * as t from '../../../server/db/schema';
import type { TestServer } from '../../support/server';
import { signedIn, statuses, type MatrixRow } from './types';

/**
 * Learning videos (contract/learning.ts). The list and the detail are public: every role, anonymous included, gets
 * 200. Progress is the signed-in account's own, with no organisation in it: every demo account reads and writes its
 * own, anonymous callers get 401.
 */
async function firstVideo(s: TestServer): Promise<{ id: number }> {
  const [row] = await s.db.db.select({ id: t.learnings.id }).from(t.learnings).orderBy(asc(t.learnings.sort), asc(t.learnings.id)).limit(1);
  return { id: row!.id };
}

export const rows: MatrixRow[] = [
  { method: 'GET', route: '/learnings', path: () => '/learnings?limit=5', expect: statuses(200) },
  { method: 'GET', route: '/learnings/:id', setup: firstVideo, path: ({ fixture }) => `/learnings/${fixture.id}`, expect: statuses(200) },
  { method: 'GET', route: '/learnings/:id/progress', setup: firstVideo, path: ({ fixture }) => `/learnings/${fixture.id}/progress`, expect: signedIn(200) },
  {
    method: 'PUT', route: '/learnings/:id/progress', setup: firstVideo, path: ({ fixture }) => `/learnings/${fixture.id}/progress`,
    body: () => ({ positionSec: 5, completed: false }), expect: signedIn(200),
  },
];
