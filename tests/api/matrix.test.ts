import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server';
import { ROLES, type MatrixRow, type Role } from './matrix/types';

/**
 * Role × endpoint: every registered route, called as each demo role and anonymously, answers the status its row
 * expects. Rows live per area in tests/api/matrix/<area>.ts (see types.ts); a route without a row fails here.
 */
const modules = import.meta.glob<{ rows: MatrixRow[] }>('./matrix/*.ts', { eager: true });
const ROWS: MatrixRow[] = Object.entries(modules)
  .filter(([file]) => !file.endsWith('/types.ts'))
  .flatMap(([, mod]) => mod.rows);
const API = '/api/v1';
const keyOf = (method: string, route: string) => `${method} ${route}`;

let s: TestServer;
const tokens = new Map<Role, string>();
beforeAll(async () => { s = await startServer({ exams: 5 }); });
afterAll(async () => { await s.close(); });

async function tokenOf(role: Role): Promise<string | undefined> {
  if (role === 'anonymous') return undefined;
  if (!tokens.has(role)) tokens.set(role, await s.login(role));
  return tokens.get(role);
}

/**
 * The routes the app registered, from Fastify's route tree (`printRoutes({ commonPrefix: false })` prints one
 * line per node, indented four characters per level, with its methods in brackets). HEAD is Fastify's automatic
 * twin of GET.
 */
export function registeredRoutes(tree: string): string[] {
  const found: string[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^(.*?)(?:├── |└── )(.+?)(?: \(([^)]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    const full = (stack[depth - 1] ?? '') + m[2]!;
    stack.push(full);
    for (const method of m[3]?.split(', ') ?? []) if (method !== 'HEAD') found.push(keyOf(method, full));
  }
  return found;
}

describe('role × endpoint matrix', () => {
  it('has a row for every registered API route, and no row for a route that does not exist', () => {
    const registered = registeredRoutes(s.app.printRoutes({ commonPrefix: false }))
      .filter((key) => key.split(' ')[1]!.startsWith(`${API}/`))
      .map((key) => key.replace(` ${API}/`, ' /'));
    expect(registered).toContain('GET /domain'); // the parse found the tree
    const rows = ROWS.map((r) => keyOf(r.method, r.route));
    const missing = registered.filter((key) => !rows.includes(key));
    const stale = rows.filter((key) => !registered.includes(key));
    expect({ 'routes without a row in tests/api/matrix/': missing, 'rows without a route': stale })
      .toEqual({ 'routes without a row in tests/api/matrix/': [], 'rows without a route': [] });
    expect(new Set(rows).size).toBe(rows.length);
  });

  it.each(ROWS.map((row) => [keyOf(row.method, row.route), row] as const))('%s answers each role as expected', async (_key, row) => {
    const actual = {} as Record<Role, number>;
    for (const role of ROLES) {
      const fixture = row.setup ? await row.setup(s, role) : undefined;
      const call = { s, role, fixture };
      const path = row.path ? row.path(call) : row.route;
      const res = await s.request(row.method, `${API}${path}`, { token: await tokenOf(role), body: row.body?.(call) });
      actual[role] = res.status;
    }
    if (row.endsSession) tokens.clear();
    expect(actual).toEqual(row.expect);
  });
});
