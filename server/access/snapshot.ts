import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { withFastRows } from '../db/fastRows';
import { preparedOnce } from '../db/preparedOnce';
import { accounts } from '../db/schema';
import { accessFromRows, type Access, type AccessRows } from './access';

export type AccountRow = typeof accounts.$inferSelect;

/**
 * The account and everything its Access is made of (organisation memberships with their group, group memberships,
 * role actions), in one statement: the same rows loadAccess reads with three, read in the same snapshot as the
 * account's status and token version. Nothing is cached across requests that the database could change, so a
 * removed role, membership or a disabled account counts from the very next request, in every API process
 * (docs/decisions.md "Performance: what a request costs").
 */
const accessText = sql<string>`json_build_array(
  coalesce((select json_agg(json_build_array(bm.bucket_id, bm.access_level, b.group_id))
            from bucket_members bm join buckets b on b.id = bm.bucket_id where bm.account_id = "accounts"."id"), '[]'),
  coalesce((select json_agg(json_build_array(gm.group_id, gm.access_level))
            from group_members gm where gm.account_id = "accounts"."id"), '[]'),
  coalesce((select json_agg(json_build_array(r.bucket_id, r.actions))
            from role_users ru join roles r on r.id = ru.role_id where ru.account_id = "accounts"."id"), '[]')
)::text`;
// The outer account is named in full ("accounts"."id"): drizzle writes a column of a one-table select unqualified,
// and inside these subqueries a bare "id" would be the subquery's own table's id.

function prepare(db: Db) {
  // A named statement: PostgreSQL parses and plans it once per connection, not on every request.
  return withFastRows(db.select({ account: accounts, access: accessText }).from(accounts)
    .where(eq(accounts.id, sql.placeholder('id'))).prepare('auth_account_access'));
}

/**
 * Access objects by the exact text of their rows. A pure memo — the same rows always make the same Access — so it
 * can never answer for rows that changed: changed rows are a different key. It saves parsing and building the action
 * sets on every request of the same account. Access is read-only for its users (ReadonlyMap, ReadonlySet).
 */
const built = new Map<string, Access>();
const BUILT_MAX = 2000;

type Packed = [[number, string, number][], [number, number][], [number, string[]][]];

export function accessOfText(accountId: number, text: string): Access {
  const key = `${accountId}\u0000${text}`;
  const hit = built.get(key);
  if (hit) return hit;
  const [m, g, r] = JSON.parse(text) as Packed;
  const rows: AccessRows = {
    memberships: m.map(([bucketId, accessLevel, groupId]) => ({ bucketId, accessLevel, groupId })),
    groupRows: g.map(([groupId, accessLevel]) => ({ groupId, accessLevel })),
    roleRows: r.map(([bucketId, actions]) => ({ bucketId, actions: Array.isArray(actions) ? actions : [] })),
  };
  const access = accessFromRows(accountId, rows.memberships, rows.groupRows, rows.roleRows);
  if (built.size >= BUILT_MAX) built.delete(built.keys().next().value!);
  built.set(key, access);
  return access;
}

/** One round trip: the account row (or null), the text its Access is made of, and that Access, as loadAccess would build it now. */
export async function loadAccountWithAccess(db: Db, accountId: number): Promise<{ account: AccountRow; accessText: string; access: () => Access } | null> {
  const [found] = await preparedOnce(db, 'auth_account_access', prepare).execute({ id: accountId });
  if (!found) return null;
  return { account: found.account, accessText: found.access, access: () => accessOfText(accountId, found.access) };
}

/**
 * The auth statement's answer as one column of another statement (the account of placeholder `account`): JSON
 * `[status, token version, access text]`, or null when the account is gone. Uncorrelated, so PostgreSQL computes it
 * once per execution (an InitPlan), in that statement's own snapshot: a statement that carries it reads its rows and
 * the caller's rights at the same moment (server/auth/plugin.ts, "checked in the statement").
 */
export function accountCheckColumn(account: unknown) {
  return sql<string | null>`(select json_build_array("accounts"."status", "accounts"."token_version", ${accessText})::text
    from ${accounts} where "accounts"."id" = ${account})`;
}

/** Does a check column's value say the account is as `expected` (enabled, this token version, this access text)? */
export function checkMatches(check: string | null | undefined, expected: { tokenVersion: number; accessText: string }): boolean {
  if (typeof check !== 'string') return false;
  const [status, tokenVersion, text] = JSON.parse(check) as [number, number, string];
  return status === 0 && tokenVersion === expected.tokenVersion && text === expected.accessText;
}
