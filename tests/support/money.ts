import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { createTokens } from '../../server/auth/tokens';
import * as t from '../../server/db/schema';
import type { Deps } from '../../server/deps';
import type { PaymentProvider } from '../../server/payments/providers/provider';
import { DEMO_PASSWORD } from '../../server/seed/demo';
import type { ReportOrderDetail } from '../../contract/payments';
import { insertExam, tokenOf } from './reports';
import type { TestServer } from './server';

/** The money side's test helpers: applications, paying by credit, by QR through the sandbox, the ledger's proof. */

/**
 * The centre as the demo has it: the group's paid expert organisation and its default one (remote reports). Tests
 * that rewrite the group's settings (the matrix's groups rows) may have changed both, so they are put back first.
 */
export async function restoreExpertCentre(s: TestServer): Promise<void> {
  await s.db.db.insert(t.groupExpertBuckets).values({ groupId: s.ids.groupId, bucketId: s.ids.expertCentreId, free: false })
    .onConflictDoUpdate({ target: [t.groupExpertBuckets.groupId, t.groupExpertBuckets.bucketId], set: { free: false } });
  await s.db.db.update(t.groups).set({ defaultExpertBucketId: s.ids.expertCentreId }).where(eq(t.groups.id, s.ids.groupId));
}

/** A fresh exam of the hospital asked of the expert centre by `role` (R's apply): an unpaid application. */
export async function applyFor(s: TestServer, role = 'rad1', o: { modality?: string } = {}): Promise<ReportOrderDetail> {
  await restoreExpertCentre(s);
  const examId = await insertExam(s, { modality: o.modality ?? 'CT' });
  const res = await s.request('POST', 'report-requests/apply', {
    token: await tokenOf(s, role), body: { examId, type: 'expert', bucketIds: [s.ids.expertCentreId], agreeTerms: true },
  });
  if (res.status !== 201) throw new Error(`apply: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as ReportOrderDetail;
}

export async function chargeTokenOf(s: TestServer, role = 'rad1', password = DEMO_PASSWORD): Promise<string> {
  const res = await s.request('POST', 'credits/create-token', { token: await tokenOf(s, role), body: { groupId: s.ids.groupId, password } });
  if (res.status !== 200) throw new Error(`create-token: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.chargeToken as string;
}

export async function payByCredit(s: TestServer, orderId: number, o: { role?: string; chargeToken?: string; key?: string } = {}) {
  const role = o.role ?? 'rad1';
  const chargeToken = o.chargeToken ?? (await chargeTokenOf(s, role));
  return s.request('POST', 'credits/charge', {
    token: await tokenOf(s, role), body: { orderId }, headers: { 'charge-authorization': `Bearer ${chargeToken}`, ...(o.key ? { 'idempotency-key': o.key } : {}) },
  });
}

/** The sandbox page's Pay button for a code (what the phone does with the QR). */
export async function sandboxPay(s: TestServer, codeUrl: string, action: 'pay' | 'fail' = 'pay') {
  const url = new URL(codeUrl);
  const outTradeNo = decodeURIComponent(url.pathname.split('/').pop()!);
  return s.request('POST', `payments/sandbox/${encodeURIComponent(outTradeNo)}/${action}?s=${encodeURIComponent(url.searchParams.get('s') ?? '')}`);
}

/** Polls payment-status until `done` says so (the sandbox's notification arrives in the background). */
export async function waitForStatus(s: TestServer, token: string, orderId: number, done: (b: { paymentStatus: number }) => boolean, ms = 10_000) {
  const end = Date.now() + ms;
  for (;;) {
    const res = await s.request('GET', `charge/${orderId}/payment-status`, { token });
    if (res.status === 200 && done(res.body)) return res.body;
    if (Date.now() > end) throw new Error(`payment-status never matched: ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Pays an application by QR in the sandbox and waits until the server has settled it. */
export async function payByQr(s: TestServer, orderId: number, role = 'rad1') {
  const token = await tokenOf(s, role);
  const code = await s.request('GET', `charge/${orderId}/pre-paid-order`, { token });
  if (code.status !== 200) throw new Error(`pre-paid-order: ${code.status} ${JSON.stringify(code.body)}`);
  const paid = await sandboxPay(s, code.body.codeUrl);
  if (paid.status !== 200) throw new Error(`sandbox pay: ${paid.status} ${JSON.stringify(paid.body)}`);
  await waitForStatus(s, token, orderId, (b) => b.paymentStatus === 1);
  return code.body;
}

/** A Deps over the test server's database and signer, for calling the money functions directly (channel events). */
export function depsOf(s: TestServer, payments?: PaymentProvider): Deps {
  return {
    db: s.db.db, dbKind: s.db.kind, clock: s.clock, storage: s.storage, tokens: createTokens(randomBytes(8).toString('hex'), 3600),
    config: { tokenTtlSeconds: 3600, scryptCost: 1024, dataDir: '/tmp', clientDir: '/nonexistent', publicOrigin: s.url }, payments,
  };
}

/** The ledger proves the balance: the running sum of every row equals its balanceAfterFen and the stored balance. */
export async function ledgerProof(s: TestServer, groupId = s.ids.groupId): Promise<{ balanceFen: number; sumFen: number; rows: number }> {
  const rows = await s.db.db.select().from(t.creditLedger).where(eq(t.creditLedger.groupId, groupId)).orderBy(t.creditLedger.id);
  let running = 0;
  for (const row of rows) {
    running += row.amountFen;
    if (row.balanceAfterFen !== running) throw new Error(`ledger row ${row.id}: balanceAfter ${row.balanceAfterFen} ≠ running sum ${running}`);
  }
  const [credit] = await s.db.db.select().from(t.groupCredits).where(eq(t.groupCredits.groupId, groupId));
  return { balanceFen: credit?.balanceFen ?? 0, sumFen: running, rows: rows.length };
}
