import { and, asc, count, ilike, inArray, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { realmQueryInput, type RealmAccount, type RealmPage } from '../../contract/accounts';
import { isGroupAdmin } from '../access/access';
import { authOf } from '../auth/plugin';
import { accounts, groupMembers } from '../db/schema';
import type { Deps } from '../deps';
import { fail } from '../http/errors';
import { parse } from '../http/validate';

/** `%`, `_` and `\` typed by a user are letters, not patterns. */
const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * POST accounts/query-in-realm (areas §7 "Accounts"): the account list of the groups the caller administers — the
 * realm an admin may enable, disable or reset (accounts/{id}/status, password/reset). Anyone else: 403.
 */
export async function realmRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const { db } = deps;
  app.post('/accounts/query-in-realm', async (req): Promise<RealmPage> => {
    const access = await authOf(req).access();
    const input = parse(realmQueryInput, req.body ?? {});
    const groupIds = [...access.groups.keys()].filter((groupId) => isGroupAdmin(access, groupId));
    if (groupIds.length === 0) fail('Forbidden');
    const inRealm = db.selectDistinct({ id: groupMembers.accountId }).from(groupMembers).where(inArray(groupMembers.groupId, groupIds));
    const where = and(
      inArray(accounts.id, inRealm),
      input.query ? or(ilike(accounts.username, likeText(input.query)), ilike(accounts.name, likeText(input.query))) : undefined,
    );
    const [rows, [total]] = await Promise.all([
      db.select({
        id: accounts.id, username: accounts.username, name: accounts.name, techTitle: accounts.techTitle, status: accounts.status,
        lastLoginAt: accounts.lastLoginAt, lastLoginIp: accounts.lastLoginIp,
      }).from(accounts).where(where).orderBy(asc(sql`lower(${accounts.username})`), asc(accounts.id)).offset(input.skip).limit(input.limit),
      db.select({ n: count() }).from(accounts).where(where),
    ]);
    const memberships = rows.length === 0 ? [] : await db.select({ accountId: groupMembers.accountId, groupId: groupMembers.groupId }).from(groupMembers)
      .where(and(inArray(groupMembers.accountId, rows.map((r) => r.id)), inArray(groupMembers.groupId, groupIds)));
    const items: RealmAccount[] = rows.map((r) => ({
      ...r,
      lastLoginAt: r.lastLoginAt ? r.lastLoginAt.toISOString() : null,
      groupIds: memberships.filter((m) => m.accountId === r.id).map((m) => m.groupId).sort((a, b) => a - b),
    }));
    return { items, total: Number(total?.n ?? 0) };
  });
}
