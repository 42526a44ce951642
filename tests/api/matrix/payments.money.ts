import { and, eq } from 'drizzle-orm';
import * as t from '../../../server/db/schema';
import { DEMO_PASSWORD } from '../../../server/seed/demo';
import { applyFor, payByCredit } from '../../support/money';
import { tokenOf } from '../../support/reports';
import type { TestServer } from '../../support/server';
import { signedIn, type MatrixRow } from './types';

/**
 * The money side of payments (server/payments/money): charges, plans, credits, refunds. Paying is the applicant
 * organisation's (apply_expert_report at the hospital: admin, orgadmin, rad1, rad2, chief); the expert centre's
 * expert sees the application (403 on paying). The group's money is read by its admin and by accounts with
 * payment_refund or an applying action in one of its organisations; adjust is the group admin's.
 */
const payer = (ok: number) => signedIn(403, { admin: ok, orgadmin: ok, rad1: ok, rad2: ok, chief: ok });
const moneyReader = (ok: number) => signedIn(403, { admin: ok, orgadmin: ok, rad1: ok, rad2: ok, chief: ok, expert: ok });
/** Reading an application: the expert (target side) and hospital members with an order action or exam_get (not the registrar). */
const reader = (ok: number) => signedIn(ok, { registrar: 403 });
const refunder = (ok: number) => signedIn(403, { admin: ok, orgadmin: ok, chief: ok, expert: ok });

async function packageId(s: TestServer, kind: string): Promise<number> {
  const [row] = await s.db.db.select({ id: t.chargePackages.id }).from(t.chargePackages).where(and(eq(t.chargePackages.kind, kind), eq(t.chargePackages.active, true))).limit(1);
  return row!.id;
}
/** A fresh unpaid application of rad1's, with the single package's id. */
const unpaid = async (s: TestServer) => ({ order: await applyFor(s), singleId: await packageId(s, 'single') });
/** A fresh application paid by credit (a refund's object). */
async function paid(s: TestServer) {
  const order = await applyFor(s);
  const res = await payByCredit(s, order.id);
  if (res.status !== 200) throw new Error(`credit: ${res.status} ${JSON.stringify(res.body)}`);
  return { order: res.body };
}
/** A plan with reports to spare, so every payer's plans/use finds one. */
async function withPlan(s: TestServer) {
  const now = s.clock.now();
  await s.db.db.insert(t.planSubscriptions).values({
    groupId: s.ids.groupId, packageId: await packageId(s, 'plan'), reportsTotal: 100, reportsUsed: 0, startsAt: new Date(now.getTime() - 60_000), expiresAt: new Date(now.getTime() + 86_400_000),
  });
  return unpaid(s);
}
/** A credit recharge opened by chief. */
async function recharge(s: TestServer) {
  const res = await s.request('POST', 'credits/recharge', { token: await tokenOf(s, 'chief'), body: { groupId: s.ids.groupId, packageId: await packageId(s, 'credit') } });
  if (res.status !== 201) throw new Error(`recharge: ${res.status} ${JSON.stringify(res.body)}`);
  return { chargeId: res.body.id as number };
}
type Fixture = { order: { id: number; version: number }; singleId: number; chargeId: number };
const order = (suffix: string) => ({ fixture }: { fixture: Fixture }) => `/charge/${fixture.order.id}${suffix}`;
const group = (path: string) => ({ s }: { s: TestServer }) => `${path}?groupId=${s.ids.groupId}`;

export const rows: MatrixRow[] = [
  { method: 'GET', route: '/packages/query', path: () => '/packages/query?kind=credit', expect: signedIn(200) },
  { method: 'POST', route: '/charge/apply-charge', setup: unpaid, body: ({ fixture }) => ({ orderId: fixture.order.id, packageId: fixture.singleId }), expect: payer(201) },
  { method: 'GET', route: '/charge/:id/detail', setup: unpaid, path: order('/detail'), expect: reader(200) },
  { method: 'GET', route: '/charge/:id/pre-paid-order', setup: unpaid, path: order('/pre-paid-order'), expect: payer(200) },
  { method: 'GET', route: '/charge/:id/payment-status', setup: unpaid, path: order('/payment-status'), expect: reader(200) },
  { method: 'POST', route: '/charge/:id/paid-confirm', setup: unpaid, path: order('/paid-confirm'), expect: reader(200) },
  { method: 'GET', route: '/charge/request', expect: signedIn(200) },
  { method: 'DELETE', route: '/charge/:id/delete', setup: unpaid, path: order('/delete'), expect: payer(204) },
  { method: 'POST', route: '/report-requests/:id/pre-paid-order', setup: unpaid, path: ({ fixture }) => `/report-requests/${fixture.order.id}/pre-paid-order`, body: () => ({}), expect: payer(200) },
  { method: 'POST', route: '/report-requests/:id/paid-confirm', setup: unpaid, path: ({ fixture }) => `/report-requests/${fixture.order.id}/paid-confirm`, expect: reader(200) },
  { method: 'GET', route: '/plans/available', expect: signedIn(200) },
  { method: 'GET', route: '/plans/check', setup: unpaid, path: ({ fixture }) => `/plans/check?orderId=${fixture.order.id}`, expect: reader(200) },
  { method: 'GET', route: '/plans/dried', path: group('/plans/dried'), expect: moneyReader(200) },
  { method: 'GET', route: '/plans/group-available', path: group('/plans/group-available'), expect: moneyReader(200) },
  { method: 'POST', route: '/plans/use', setup: withPlan, body: ({ fixture }) => ({ orderId: fixture.order.id }), expect: payer(200) },
  { method: 'GET', route: '/credits/group-credit', path: group('/credits/group-credit'), expect: moneyReader(200) },
  { method: 'POST', route: '/credits/create-token', body: ({ s }) => ({ groupId: s.ids.groupId, password: DEMO_PASSWORD }), expect: signedIn(200) },
  // Without Charge-Authorization every caller is refused before anything else is looked at (the header is the point).
  { method: 'POST', route: '/credits/charge', setup: unpaid, body: ({ fixture }) => ({ orderId: fixture.order.id }), expect: signedIn(401) },
  { method: 'POST', route: '/credits/page-query', body: ({ s }) => ({ groupId: s.ids.groupId }), expect: moneyReader(200) },
  { method: 'GET', route: '/credits/sums', path: group('/credits/sums'), expect: moneyReader(200) },
  { method: 'POST', route: '/credits/export', body: ({ s }) => ({ groupId: s.ids.groupId }), expect: moneyReader(200) },
  { method: 'POST', route: '/credits/recharge', setup: async (s) => ({ creditId: await packageId(s, 'credit') }), body: ({ s, fixture }) => ({ groupId: s.ids.groupId, packageId: fixture.creditId }), expect: moneyReader(201) },
  { method: 'GET', route: '/credits/recharge/:id', setup: recharge, path: ({ fixture }) => `/credits/recharge/${fixture.chargeId}`, expect: moneyReader(200) },
  { method: 'POST', route: '/credits/recharge/:id/confirm', setup: recharge, path: ({ fixture }) => `/credits/recharge/${fixture.chargeId}/confirm`, expect: moneyReader(200) },
  { method: 'POST', route: '/credits/adjust', body: ({ s }) => ({ groupId: s.ids.groupId, amountFen: 1, note: 'matrix' }), expect: signedIn(403, { admin: 200, orgadmin: 403 }) },
  { method: 'POST', route: '/payments/:id/refund', setup: paid, path: ({ fixture }) => `/payments/${fixture.order.id}/refund`, body: ({ fixture }) => ({ reason: 'matrix', version: fixture.order.version }), expect: refunder(200) },
];
