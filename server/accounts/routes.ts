import { and, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  accountStatusInput, changePasswordInput, loginInput, patchMeInput, registerInput, resetPasswordInput, suggestionsQuery, updatePasswordInput,
  type AccountSuggestion, type LoginResult, type MyOrganization, type Permissions,
} from '../../contract/accounts';
import { recordAudit } from '../audit/record';
import { idParam } from '../../contract/common';
import { checkPassword } from '../../contract/password';
import { assertMember, isGroupAdmin, memberActions, type Access } from '../access/access';
import { authOf, type AccountRow } from '../auth/plugin';
import { decoyHash, hashPassword, verifyPassword } from '../auth/password';
import { assertNotBlocked, clearCounter, count, limitRequest, loginAccountKey, loginKeys, RATE_RULES } from '../http/rateLimit';
import { accounts, bucketMembers, buckets, domains, groupMembers } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError, fail } from '../http/errors';
import { parse } from '../http/validate';
import { toUser } from './serialize';
import { mobileRoutes } from './mobile';
import { signatureRoutes } from './signature';

const pub = { config: { public: true } };
/** A suggestion list holds 10; filtered by an action, up to 500 matches are judged to fill it. */
const SUGGESTIONS = 10;
const SUGGESTION_SCAN = 500;

export async function accountRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const { db } = deps;
  const nowSeconds = () => Math.floor(deps.clock.now().getTime() / 1000);
  const domainName = async () => (await db.select({ n: domains.displayDomainName }).from(domains).limit(1))[0]?.n ?? null;
  // Settings: mobile binding, password reset by SMS code, the signature image (server/accounts/mobile.ts, signature.ts).
  const mobile = mobileRoutes(deps, app.log);
  mobile.register(app);
  await signatureRoutes(app, { deps });

  async function findByUsername(username: string): Promise<AccountRow | undefined> {
    const [row] = await db.select().from(accounts).where(sql`lower(${accounts.username}) = lower(${username})`);
    return row;
  }

  /** Checks a password with the login throttle around it; the same path serves login and update-password. */
  async function checkCredentials(req: FastifyRequest, username: string, password: string): Promise<AccountRow> {
    const keys = loginKeys(username, req.ip);
    const now = deps.clock.now();
    await assertNotBlocked(db, keys.map((k) => k.key), now);
    const account = await findByUsername(username);
    const ok = account
      ? await verifyPassword(password, account.passwordHash)
      : await verifyPassword(password, await decoyHash(deps.config.scryptCost)).then(() => false);
    if (!account || !ok) {
      for (const { key, rule } of keys) await count(db, key, now, rule);
      throw new ApiError('InvalidCredentials');
    }
    await clearCounter(db, loginAccountKey(username));
    if (account.status !== 0) throw new ApiError('AccountDisabled');
    return account;
  }

  async function issue(account: AccountRow, ip: string): Promise<LoginResult> {
    const token = await deps.tokens.issue({ sub: account.id, tv: account.tokenVersion, loginType: 'normal' }, nowSeconds());
    await db.update(accounts).set({ lastLoginAt: deps.clock.now(), lastLoginIp: ip }).where(eq(accounts.id, account.id));
    return { ...token, loginType: 'normal', user: toUser(account, await domainName()) };
  }

  app.post('/accounts/login', pub, async (req) => {
    const { username, password } = parse(loginInput, req.body);
    const account = await checkCredentials(req, username, password);
    // Old passwords that break today's rule must be reset before a token is given (core §5).
    if (checkPassword(password) !== null) throw new ApiError('PasswordResetRequired', undefined, { username: account.username });
    return issue(account, req.ip);
  });

  app.post('/accounts', pub, async (req, reply) => {
    const input = parse(registerInput, req.body);
    const [domain] = await db.select().from(domains).limit(1);
    if (!domain?.allowRegistration) fail('RegistrationClosed');
    // Per address, like login: one address cannot open accounts by the dozen (nor make the server hash for them).
    await limitRequest(db, `register-ip:${req.ip}`, deps.clock.now(), RATE_RULES.registerAddress);
    if (checkPassword(input.password) !== null) fail('PasswordTooSimple');
    if (await findByUsername(input.username)) fail('UsernameTaken');
    const passwordHash = await hashPassword(input.password, deps.config.scryptCost);
    const [account] = await db.insert(accounts).values({ username: input.username, name: input.name, passwordHash })
      .onConflictDoNothing().returning();
    if (!account) fail('UsernameTaken');
    reply.status(201);
    return issue(account!, req.ip);
  });

  app.post('/accounts/logout', async (req, reply) => {
    const { account } = authOf(req);
    await db.update(accounts).set({ tokenVersion: sql`${accounts.tokenVersion} + 1` }).where(eq(accounts.id, account.id));
    reply.status(204).send();
  });

  app.get('/accounts/me', async (req) => toUser(authOf(req).account, await domainName()));

  app.patch('/accounts/me', async (req) => {
    const { account } = authOf(req);
    const { notificationPrefs, ...patch } = parse(patchMeInput, req.body);
    // areas §5: a signature cannot be empty (the settings screen saves images through POST accounts/me/signature).
    if (patch.signature !== undefined && patch.signature.trim() === '') fail('SignatureEmpty');
    if (Object.keys(patch).length === 0 && !notificationPrefs) return toUser(account, await domainName());
    const [row] = await db.update(accounts).set({
      ...patch,
      // Merged into what is stored: one switch changes without resending the other.
      ...(notificationPrefs ? { notificationPrefs: sql`${accounts.notificationPrefs} || ${JSON.stringify(notificationPrefs)}::jsonb` } : {}),
    }).where(eq(accounts.id, account.id)).returning();
    return toUser(row!, await domainName());
  });

  app.post('/accounts/change-password', async (req, reply) => {
    const { account } = authOf(req);
    const { oldPassword, newPassword } = parse(changePasswordInput, req.body);
    // Through the login throttle: a stolen token must not become an unlimited password-guessing oracle.
    await checkCredentials(req, account.username, oldPassword);
    if (checkPassword(newPassword) !== null) fail('PasswordTooSimple');
    await db.update(accounts).set({ passwordHash: await hashPassword(newPassword, deps.config.scryptCost) }).where(eq(accounts.id, account.id));
    reply.status(204).send();
  });

  /** For an account whose old password breaks today's rule: proves the old one, sets a compliant one. */
  app.post('/accounts/update-password', pub, async (req, reply) => {
    const { username, oldPwd, newPwd } = parse(updatePasswordInput, req.body);
    const account = await checkCredentials(req, username, oldPwd);
    if (checkPassword(newPwd) !== null) fail('PasswordTooSimple');
    await db.update(accounts).set({
      passwordHash: await hashPassword(newPwd, deps.config.scryptCost),
      tokenVersion: sql`${accounts.tokenVersion} + 1`,
    }).where(eq(accounts.id, account.id));
    reply.status(204).send();
  });

  app.get('/accounts/me/permissions', async (req) => {
    const access = await authOf(req).access();
    const out: Permissions = {};
    for (const grant of access.buckets.values()) out[String(grant.bucketId)] = { type: 1, actions: [...grant.actions].sort() };
    return out;
  });

  app.get('/accounts/me/organizations', async (req): Promise<MyOrganization[]> => {
    const { account } = authOf(req);
    return db.select({ id: buckets.id, name: buckets.name, code: buckets.code, groupId: buckets.groupId, accessLevel: bucketMembers.accessLevel })
      .from(bucketMembers).innerJoin(buckets, eq(buckets.id, bucketMembers.bucketId))
      .where(eq(bucketMembers.accountId, account.id)).orderBy(buckets.id);
  });

  /**
   * People of the caller's groups, for assign and invite pickers. With `bucketId` only members of that
   * organisation (one of the caller's: 404 otherwise), with `action` only those holding it there: the
   * report assign picker asks for the organisation's report writers, whom POST reports/{id}/assign accepts.
   */
  app.get('/accounts/suggestions', async (req): Promise<AccountSuggestion[]> => {
    const access = await authOf(req).access();
    const { q, bucketId, action } = parse(suggestionsQuery, req.query);
    if (bucketId !== undefined) assertMember(access, bucketId);
    const groupIds = [...access.groups.keys()];
    if (groupIds.length === 0) return [];
    const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const inBucket = bucketId === undefined ? undefined
      : inArray(accounts.id, db.select({ id: bucketMembers.accountId }).from(bucketMembers).where(eq(bucketMembers.bucketId, bucketId)));
    const found = await db.selectDistinct({ id: accounts.id, username: accounts.username, name: accounts.name })
      .from(accounts).innerJoin(groupMembers, eq(groupMembers.accountId, accounts.id))
      .where(and(inArray(groupMembers.groupId, groupIds), eq(accounts.status, 0), inBucket,
        q ? or(ilike(accounts.username, like), ilike(accounts.name, like)) : undefined))
      // The action is judged after the query (roles and access levels, as everywhere): read enough to fill 10.
      .orderBy(accounts.username).limit(action ? SUGGESTION_SCAN : SUGGESTIONS);
    if (!action || bucketId === undefined) return found;
    const held = await memberActions(db, bucketId, found.map((a) => a.id));
    return found.filter((a) => held.get(a.id)?.has(action)).slice(0, SUGGESTIONS);
  });

  /** The groups of account `id`; 404 unless the caller shares one (ids from elsewhere reveal nothing). */
  async function groupsOfVisibleAccount(access: Access, id: number): Promise<number[]> {
    const memberships = await db.select({ groupId: groupMembers.groupId }).from(groupMembers).where(eq(groupMembers.accountId, id));
    if (!memberships.some((m) => access.groups.has(m.groupId))) fail('NotFound');
    return memberships.map((m) => m.groupId);
  }

  /** A group admin enables or disables a member of the group; disabling ends the member's tokens at once. */
  app.post('/accounts/:id/status', async (req, reply) => {
    const access = await authOf(req).access();
    const { id } = parse(idParam, req.params);
    const { status } = parse(accountStatusInput, req.body);
    const memberships = (await groupsOfVisibleAccount(access, id)).map((groupId) => ({ groupId }));
    if (!memberships.some((m) => isGroupAdmin(access, m.groupId))) fail('Forbidden');
    if (id === access.accountId) fail('Forbidden', 'You cannot change your own status');
    await db.transaction(async (tx) => {
      const [before] = await tx.select({ status: accounts.status }).from(accounts).where(eq(accounts.id, id)).for('update');
      await tx.update(accounts).set({ status, tokenVersion: sql`${accounts.tokenVersion} + 1` }).where(eq(accounts.id, id));
      await recordAudit(tx, {
        at: deps.clock.now(), actorId: access.accountId, area: 'accounts', action: 'status', objectType: 'account', objectId: id,
        before: { status: before?.status ?? null }, after: { status },
      });
    });
    reply.status(204).send();
  });

  /**
   * core §7 accounts/{id}/password/reset: with {code, newPassword} the account's owner proves an SMS code
   * (no token: server/accounts/mobile.ts); with {newPassword} alone a group administrator sets a new password for a
   * member who forgot it (bearer required). Ends the member's tokens and lifts a login block on the account.
   */
  app.post('/accounts/:id/password/reset', pub, async (req, reply) => {
    const body = req.body as { code?: unknown } | null;
    if (body && typeof body === 'object' && body.code !== undefined) return mobile.resetWithCode(req, reply);
    const access = await authOf(req).access();
    const { id } = parse(idParam, req.params);
    const { newPassword } = parse(resetPasswordInput, req.body);
    const groupIds = await groupsOfVisibleAccount(access, id);
    if (id === access.accountId) fail('Forbidden', 'Use change-password for your own password');
    // Admin of every group the account is in: a password opens all of them, so the admin of one group must
    // not take over an account that reaches another group's organisations.
    if (!groupIds.every((groupId) => isGroupAdmin(access, groupId))) fail('Forbidden');
    if (checkPassword(newPassword) !== null) fail('PasswordTooSimple');
    const passwordHash = await hashPassword(newPassword, deps.config.scryptCost);
    await db.transaction(async (tx) => {
      const [target] = await tx.update(accounts)
        .set({ passwordHash, tokenVersion: sql`${accounts.tokenVersion} + 1` })
        .where(eq(accounts.id, id)).returning({ username: accounts.username });
      await clearCounter(tx, loginAccountKey(target!.username));
      // The password itself is never recorded: only that an administrator set a new one.
      await recordAudit(tx, {
        at: deps.clock.now(), actorId: access.accountId, area: 'accounts', action: 'password-reset', objectType: 'account', objectId: id,
        after: { password: 'reset' },
      });
    });
    reply.status(204).send();
  });
}
