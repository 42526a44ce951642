import type { TestServer } from '../../support/server';

/**
 * The role × endpoint matrix (tests/api/matrix.test.ts). Each area keeps its rows in its own file here,
 * `tests/api/matrix/<area>.ts` exporting `rows: MatrixRow[]`; the test loads every file of this folder and
 * fails when a registered route has no row, so a new endpoint cannot skip its permission check.
 */
/**
 * admin: group admin and admin of both organisations; orgadmin: admin of the hospital only, a plain group member;
 * rad1 … tech: hospital members with roles; expert: a member of the expert centre only (outside the hospital).
 */
export const ROLES = ['anonymous', 'admin', 'orgadmin', 'rad1', 'rad2', 'chief', 'registrar', 'tech', 'expert'] as const;
export type Role = (typeof ROLES)[number];

export interface MatrixCall {
  s: TestServer;
  role: Role;
  /** What `setup` returned for this role's call. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each row's fixture has its own shape
  fixture: any;
}

export interface MatrixRow {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The route as registered, relative to /api/v1, with Fastify's params: `/accounts/:id/status`. */
  route: string;
  /** Runs before each role's call (e.g. a fresh object to act on, so one role's call does not change the next one's). */
  setup?: (s: TestServer, role: Role) => Promise<unknown>;
  /** The concrete path; defaults to `route` (which then must have no params). */
  path?: (call: MatrixCall) => string;
  body?: (call: MatrixCall) => unknown;
  /** The status each role must get. Build it with `statuses(200, { anonymous: 401 })`. */
  expect: Record<Role, number>;
  /** The call ends the caller's tokens (logout): the next row signs the roles in again. */
  endsSession?: boolean;
}

/**
 * Every role gets `status` except the ones named. orgadmin holds every action at the hospital, as admin does: unless
 * named it gets admin's status (rows about the expert centre or the group itself name it).
 */
export function statuses(status: number, except: Partial<Record<Role, number>> = {}): Record<Role, number> {
  return Object.fromEntries(ROLES.map((role) => [role, except[role] ?? (role === 'orgadmin' ? except.admin : undefined) ?? status])) as Record<Role, number>;
}

/** Signed-in roles get `status`, anonymous callers 401. */
export const signedIn = (status: number, except: Partial<Record<Role, number>> = {}) => statuses(status, { anonymous: 401, ...except });
