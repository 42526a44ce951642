import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { idParam } from '../../../contract/common';
import {
  CHARGE_AUTH_HEADER, CHARGE_TOKEN_TTL_MS, ORDER_EXPORT_MAX, createChargeTokenInput, creditAdjustInput, creditChargeInput, creditExportInput,
  creditPageQuery, creditSumsQuery, groupCreditQuery, rechargeInput,
  type ChargeOrderView, type ChargeToken, type CreditSums, type GroupCredit,
} from '../../../contract/payments';
import { isGroupAdmin } from '../../access/access';
import { authOf } from '../../auth/plugin';
import { verifyPassword } from '../../auth/password';
import { chargeOrders, chargePackages } from '../../db/schema';
import type { Deps } from '../../deps';
import { ApiError } from '../../http/errors';
import { assertNotBlocked, clearCounter, count, loginAccountKey, loginKeys } from '../../http/rateLimit';
import { parse } from '../../http/validate';
import { orderDetail } from '../requests/load';
import { chargeView, createCharge, packagesOf, settleFromChannel } from './charges';
import { ledgerCount, ledgerPage, ledgerSums, ledgerWhere, ledgerWorkbook } from './creditList';
import { assertCreditEnabled, assertGroupMoneyReader, creditEnabled, isGroupMember } from './groupAccess';
import { withIdempotency } from './idempotency';
import { balanceOf, moveCredit } from './ledger';
import { assertPaymentAction, orderRow, targetBucketIds } from './orders';
import { payOrder } from './settle';

/**
 * Credits (areas §7 "Credits"): the group's balance, the charge token (the account's password again, counted by the
 * login throttle), paying an application from the balance with the token in Charge-Authorization, the ledger
 * (page-query, sums, export), recharges through the QR channel and the group administrator's adjustments.
 */

const SERVER_TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;
/** The signer's use for charge tokens: a token of another use (a file permit) is not a charge token. */
const CHARGE_USE = 'charge';

interface ChargeClaims { a: number; g: number; tv: number }

/** The Charge-Authorization bearer: this account's (and token version's) charge token for `groupId`, unexpired. */
function checkChargeToken(deps: Deps, req: FastifyRequest, groupId: number): void {
  const raw = req.headers[CHARGE_AUTH_HEADER];
  const header = Array.isArray(raw) ? raw[0] : raw;
  const [scheme, token] = (header ?? '').split(' ');
  if (scheme?.toLowerCase() !== 'bearer' || !token) throw new ApiError('ChargeTokenInvalid', 'Charge-Authorization is missing');
  const verified = deps.storage.signer.verify<ChargeClaims>(CHARGE_USE, token, Math.floor(deps.clock.now().getTime() / 1000));
  if (!verified.ok) throw new ApiError('ChargeTokenInvalid', verified.reason === 'expired' ? 'The charge token has expired' : 'The charge token is not valid');
  const { account } = authOf(req);
  if (verified.claims.a !== account.id || verified.claims.tv !== account.tokenVersion || verified.claims.g !== groupId) {
    throw new ApiError('ChargeTokenInvalid', 'The charge token is not this account\'s for this group');
  }
}

export async function creditRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const { db } = deps;

  app.get('/credits/group-credit', async (req): Promise<GroupCredit> => {
    const { groupId } = parse(groupCreditQuery, req.query);
    assertGroupMoneyReader(await authOf(req).access(), groupId);
    return { groupId, enabled: await creditEnabled(db, groupId), balanceFen: await balanceOf(db, groupId) };
  });

  app.post('/credits/create-token', async (req): Promise<ChargeToken> => {
    const { groupId, password } = parse(createChargeTokenInput, req.body);
    const access = await authOf(req).access();
    if (!isGroupMember(access, groupId)) throw new ApiError('NotFound');
    await assertCreditEnabled(db, groupId);
    const { account } = authOf(req);
    // The login throttle's own keys: a wrong password here counts as a failed login of this account (areas §8).
    const keys = loginKeys(account.username, req.ip);
    const now = deps.clock.now();
    await assertNotBlocked(db, keys.map((k) => k.key), now);
    if (!(await verifyPassword(password, account.passwordHash))) {
      for (const { key, rule } of keys) await count(db, key, now, rule);
      throw new ApiError('ChargePasswordWrong');
    }
    await clearCounter(db, loginAccountKey(account.username));
    const expires = Math.floor((now.getTime() + CHARGE_TOKEN_TTL_MS) / 1000);
    const chargeToken = deps.storage.signer.sign<ChargeClaims>(CHARGE_USE, { a: account.id, g: groupId, tv: account.tokenVersion }, expires);
    return { chargeToken, expiresAt: new Date(expires * 1000).toISOString() };
  });

  app.post('/credits/charge', async (req, reply) => {
    const { orderId } = parse(creditChargeInput, req.body);
    const access = await authOf(req).access();
    const first = await orderRow(db, orderId);
    const targets = await targetBucketIds(db, orderId);
    // Outsiders learn nothing (404) before the token is looked at.
    if (!access.buckets.has(first.fromBucketId) && !targets.some((t) => access.buckets.has(t))) throw new ApiError('NotFound');
    checkChargeToken(deps, req, first.groupId);
    const answer = await withIdempotency(req, 'credits/charge', async () => {
      await db.transaction(async (tx) => {
        const row = await orderRow(tx, orderId, { lock: true });
        assertPaymentAction(access, row, targets, 'pay', { channel: 'credit' });
        await assertCreditEnabled(tx, row.groupId);
        if (row.amountFen === 0) throw new ApiError('OrderInvalid', 'A free application is not paid', { reason: 'free' });
        const now = deps.clock.now();
        const { entryId } = await moveCredit(tx, {
          groupId: row.groupId, kind: 'charge', amountFen: -row.amountFen, orderId: row.id, accountId: access.accountId, note: row.requestNo, at: now,
        });
        await payOrder(tx, deps, row.id, { channel: 'credit', transactionId: `CL${entryId}`, paidAt: now, actorId: access.accountId });
      });
      return { status: 200, body: await orderDetail(db, access, orderId) };
    }, db);
    reply.status(answer.status);
    return answer.body;
  });

  app.post('/credits/page-query', async (req) => {
    const q = parse(creditPageQuery, req.body);
    assertGroupMoneyReader(await authOf(req).access(), q.groupId);
    await assertCreditEnabled(db, q.groupId);
    return ledgerPage(db, ledgerWhere(q.groupId, q.filters), q.sorts, q.limit, q.skip);
  });

  app.get('/credits/sums', async (req): Promise<CreditSums> => {
    const q = parse(creditSumsQuery, req.query);
    assertGroupMoneyReader(await authOf(req).access(), q.groupId);
    await assertCreditEnabled(db, q.groupId);
    const sums = await ledgerSums(db, q.groupId, q.from ? new Date(q.from) : undefined, q.to ? new Date(q.to) : undefined);
    return { balanceFen: await balanceOf(db, q.groupId), rechargedFen: sums.recharge, chargedFen: -sums.charge, refundedFen: sums.refund, adjustedFen: sums.adjust };
  });

  // Areas §9: at most 1000 rows, counted before anything is read.
  app.post('/credits/export', async (req, reply) => {
    const input = parse(creditExportInput, req.body);
    assertGroupMoneyReader(await authOf(req).access(), input.groupId);
    await assertCreditEnabled(db, input.groupId);
    const where = ledgerWhere(input.groupId, input.filters);
    const total = await ledgerCount(db, where);
    if (total > ORDER_EXPORT_MAX) throw new ApiError('ExportTooLarge', `At most ${ORDER_EXPORT_MAX} rows can be exported`, { max: ORDER_EXPORT_MAX, total });
    const { items } = await ledgerPage(db, where, input.sorts, ORDER_EXPORT_MAX, 0);
    const file = await ledgerWorkbook(items, input.lang, input.timeZone ?? SERVER_TIME_ZONE);
    const stamp = deps.clock.now().toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
    return reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename="credit-${stamp}.xlsx"`)
      .send(file);
  });

  app.post('/credits/recharge', async (req, reply): Promise<ChargeOrderView> => {
    const { groupId, packageId } = parse(rechargeInput, req.body);
    const access = await authOf(req).access();
    assertGroupMoneyReader(access, groupId);
    await assertCreditEnabled(db, groupId);
    const pkg = (await packagesOf(db, [groupId], ['credit'])).find((p) => p.id === packageId);
    if (!pkg) throw new ApiError('OrderInvalid', 'No such credit package for this group', { reason: 'package' });
    reply.status(201);
    return createCharge(deps, req, { order: null, groupId, pkg, accountId: access.accountId });
  });

  /** One recharge: its payer, or anyone who may read the group's credit. */
  async function recharge(req: FastifyRequest, chargeId: number) {
    const access = await authOf(req).access();
    const [row] = await db.select().from(chargeOrders).where(eq(chargeOrders.id, chargeId));
    if (!row || row.orderId !== null) throw new ApiError('NotFound');
    if (row.accountId !== access.accountId) assertGroupMoneyReader(access, row.groupId);
    return row;
  }

  async function rechargeView(chargeId: number): Promise<ChargeOrderView> {
    const [row] = await db.select({ c: chargeOrders, name: chargePackages.name }).from(chargeOrders)
      .innerJoin(chargePackages, eq(chargePackages.id, chargeOrders.packageId)).where(eq(chargeOrders.id, chargeId));
    return chargeView(row!.c, row!.name);
  }

  app.get('/credits/recharge/:id', async (req) => {
    const { id } = parse(idParam, req.params);
    await recharge(req, id);
    return rechargeView(id);
  });

  app.post('/credits/recharge/:id/confirm', async (req) => {
    const { id } = parse(idParam, req.params);
    const row = await recharge(req, id);
    if (row.status === 'created') await settleFromChannel(deps, row);
    return rechargeView(id);
  });

  app.post('/credits/adjust', async (req): Promise<GroupCredit> => {
    const input = parse(creditAdjustInput, req.body);
    const access = await authOf(req).access();
    if (!isGroupMember(access, input.groupId)) throw new ApiError('NotFound');
    if (!isGroupAdmin(access, input.groupId)) throw new ApiError('Forbidden');
    await assertCreditEnabled(db, input.groupId);
    const { balanceFen } = await db.transaction((tx) => moveCredit(tx, {
      groupId: input.groupId, kind: 'adjust', amountFen: input.amountFen, accountId: access.accountId, note: input.note, at: deps.clock.now(),
    }));
    return { groupId: input.groupId, enabled: true, balanceFen };
  });
}
