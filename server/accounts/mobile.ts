import { and, eq, ne, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  accountRefParam, bindMobileCodeInput, bindMobileInput, CODE_RESEND_SECONDS, CODE_TTL_SECONDS, resetPasswordInput, verificationCode,
  type CodeSent, type MaskedMobile, type User,
} from '../../contract/accounts';
import { idParam } from '../../contract/common';
import { checkPassword } from '../../contract/password';
import { isGroupAdmin } from '../access/access';
import { recordAudit } from '../audit/record';
import { hashPassword } from '../auth/password';
import { authOf, type AccountRow } from '../auth/plugin';
import type { Db } from '../db/client';
import { accounts, domains, groupMembers } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError, fail } from '../http/errors';
import { assertNotBlocked, clearCounter, count, limitRequest, loginAccountKey, RATE_RULES, type RateRule } from '../http/rateLimit';
import { parse } from '../http/validate';
import { codeError, codeText, consumeCode, maskMobile, storeCode, type CodePurpose } from './codes';
import { toUser } from './serialize';
import { localSmsSender, type SmsSender } from './sms';

const pub = { config: { public: true } };

/** Reset codes asked for without a token: per address, 10 an hour (whichever accounts they name). */
export const RESET_CODE_ADDRESS: RateRule = { limit: 10, windowMs: 60 * 60_000 };

/**
 * Mobile binding and password reset by SMS code (core §7 "Mobile"; docs/decisions.md "Settings"). The sender is
 * `deps.sms`, or the local one (server log + SMS_OUTBOX_FILE). Codes: ./codes.ts.
 */
export function mobileRoutes(deps: Deps, log: FastifyInstance['log']) {
  const { db } = deps;
  const sms: SmsSender = deps.sms ?? localSmsSender(log, deps.config.smsOutboxFile, () => deps.clock.now());

  /** Stores a code and sends it in one transaction: a failed send leaves no code and no 60-second wait. */
  async function sendCode(account: Pick<AccountRow, 'id'>, purpose: CodePurpose, mobile: string, before?: (tx: Db) => Promise<void>) {
    const now = deps.clock.now();
    await db.transaction(async (tx) => {
      await before?.(tx);
      const code = await storeCode(tx, { accountId: account.id, purpose, mobile, now, scryptCost: deps.config.scryptCost });
      try {
        await sms.send(mobile, codeText(purpose, code));
      } catch (err) {
        log.error({ err }, 'SMS sending failed');
        throw new ApiError('OperationFailed', 'The text message could not be sent');
      }
    });
  }

  /** A number belongs to one account: the check runs under a lock on the number, so two binds cannot cross. */
  async function assertMobileFree(tx: Db, mobile: string, accountId: number) {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`mobile:${mobile}`}))`);
    const [other] = await tx.select({ id: accounts.id }).from(accounts).where(and(eq(accounts.mobile, mobile), ne(accounts.id, accountId))).limit(1);
    if (other) fail('MobileTaken');
  }

  async function findAccount(ref: { id: number } | { username: string }): Promise<AccountRow | undefined> {
    const [row] = 'id' in ref
      ? await db.select().from(accounts).where(eq(accounts.id, ref.id))
      : await db.select().from(accounts).where(sql`lower(${accounts.username}) = lower(${ref.username})`);
    return row;
  }

  const domainName = async () => (await db.select({ n: domains.displayDomainName }).from(domains).limit(1))[0]?.n ?? null;

  const codeSent = (mobile: string): CodeSent => ({ mobile: maskMobile(mobile), expiresIn: CODE_TTL_SECONDS, resendAfter: CODE_RESEND_SECONDS });

  return {
    register(app: FastifyInstance) {
      /** POST accounts/me/code/bind-mobile {mobile}: a code to the new number (not one bound to another account). */
      app.post('/accounts/me/code/bind-mobile', async (req): Promise<CodeSent> => {
        const { account } = authOf(req);
        const { mobile } = parse(bindMobileCodeInput, req.body);
        await sendCode(account, 'bind-mobile', mobile, (tx) => assertMobileFree(tx, mobile, account.id));
        return codeSent(mobile);
      });

      /** POST accounts/me/mobile/bind {mobile, code}: binds the number the code was sent to. */
      app.post('/accounts/me/mobile/bind', async (req): Promise<User> => {
        const { account } = authOf(req);
        const { mobile, code } = parse(bindMobileInput, req.body);
        const now = deps.clock.now();
        const outcome = await db.transaction(async (tx) => {
          await assertMobileFree(tx, mobile, account.id);
          const checked = await consumeCode(tx, { accountId: account.id, purpose: 'bind-mobile', mobile, code, now });
          if (!checked.ok) return checked;
          const [row] = await tx.update(accounts).set({ mobile }).where(eq(accounts.id, account.id)).returning();
          await recordAudit(tx, {
            at: now, actorId: account.id, area: 'accounts', action: 'bind-mobile', objectType: 'account', objectId: account.id,
            before: { mobile: account.mobile ? maskMobile(account.mobile) : null }, after: { mobile: maskMobile(mobile) },
          });
          return { ok: true as const, row: row! };
        });
        // The spent try is committed before the refusal leaves.
        if (!outcome.ok) throw codeError(outcome);
        return toUser(outcome.row, await domainName());
      });

      /** GET accounts/{id}/mobile: masked; the account itself, or an admin of one of its groups (404 outside them, 403 otherwise). */
      app.get('/accounts/:id/mobile', async (req): Promise<MaskedMobile> => {
        const auth = authOf(req);
        const { id } = parse(idParam, req.params);
        if (id !== auth.account.id) {
          const access = await auth.access();
          const memberships = await db.select({ groupId: groupMembers.groupId }).from(groupMembers).where(eq(groupMembers.accountId, id));
          const shared = memberships.filter((m) => access.groups.has(m.groupId));
          if (shared.length === 0) fail('NotFound');
          if (!shared.some((m) => isGroupAdmin(access, m.groupId))) fail('Forbidden');
        }
        const [row] = await db.select({ mobile: accounts.mobile }).from(accounts).where(eq(accounts.id, id));
        if (!row) fail('NotFound');
        return { mobile: row!.mobile ? maskMobile(row!.mobile) : null };
      });

      /**
       * POST accounts/{id}/code/reset-password, no token needed ({id}: the id or the username): a code to the
       * account's bound number. It answers 204 whether or not the account exists or has a number, so it tells
       * nobody which accounts exist; only the 60-second rule (429) shows through. 10 an hour per address.
       */
      app.post('/accounts/:id/code/reset-password', pub, async (req, reply) => {
        const { id: ref } = parse(accountRefParam, req.params);
        await limitRequest(db, `reset-code-ip:${req.ip}`, deps.clock.now(), RESET_CODE_ADDRESS);
        const account = await findAccount(ref);
        if (!account || account.status !== 0 || !account.mobile) {
          req.log.info({ ref }, 'password reset code not sent: no such enabled account with a bound mobile');
        } else {
          await sendCode(account, 'reset-password', account.mobile);
        }
        reply.status(204).send();
      });
    },

    /**
     * POST accounts/{id}/password/reset with {code, newPassword} (no token needed): the owner of the bound mobile
     * sets a new password. Every failure is VerificationCodeInvalid (an unknown account too); 10 failures in
     * 15 minutes block the address (429). Ends the account's tokens and lifts a login block, like an admin's reset.
     */
    async resetWithCode(req: FastifyRequest, reply: FastifyReply) {
      const { id: ref } = parse(accountRefParam, req.params);
      const input = parse(resetPasswordInput.extend({ code: verificationCode }), req.body);
      const { code } = input;
      const now = deps.clock.now();
      const failureKey = `reset-fail-ip:${req.ip}`;
      await assertNotBlocked(db, [failureKey], now);
      const refuse = async (error: ApiError) => {
        await count(db, failureKey, now, RATE_RULES.publicFailures);
        throw error;
      };
      const account = await findAccount(ref);
      if (!account || account.status !== 0 || !account.mobile) return refuse(new ApiError('VerificationCodeInvalid', undefined, { reason: 'missing', triesLeft: 0 }));
      if (checkPassword(input.newPassword) !== null) fail('PasswordTooSimple');
      const passwordHash = await hashPassword(input.newPassword, deps.config.scryptCost);
      const outcome = await db.transaction(async (tx) => {
        const checked = await consumeCode(tx, { accountId: account.id, purpose: 'reset-password', mobile: account.mobile!, code, now });
        if (!checked.ok) return checked;
        await tx.update(accounts).set({ passwordHash, tokenVersion: sql`${accounts.tokenVersion} + 1` }).where(eq(accounts.id, account.id));
        await clearCounter(tx, loginAccountKey(account.username));
        await recordAudit(tx, {
          at: now, actorId: account.id, area: 'accounts', action: 'password-reset-code', objectType: 'account', objectId: account.id,
          after: { password: 'reset' },
        });
        return checked;
      });
      if (!outcome.ok) return refuse(codeError(outcome));
      reply.status(204).send();
    },
  };
}
