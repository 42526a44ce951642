/**
 * Fault injection for the crash test (tests/api/payments.crash.test.ts), read from the environment in this one
 * place: PAYMENT_FAULT names a point of the money path where the process kills itself (SIGKILL, as kill -9 would),
 * so the test can prove that a crash there leaves every application paid once or unpaid, never half. Unset in every
 * real deployment: the calls below then do nothing.
 *
 * Points (docs/decisions.md "Payments: money"):
 * - `charge-saved`: apply-charge saved the charge order but has not yet opened the trade at the channel;
 * - `before-settle`: the channel recorded SUCCESS and told us, before the settling transaction starts;
 * - `in-settle`: inside the settling transaction, after the application was marked paid, before the commit.
 */
const POINT = process.env.PAYMENT_FAULT ?? '';

export type FaultPoint = 'charge-saved' | 'before-settle' | 'in-settle';

export function crashAt(point: FaultPoint): void {
  if (POINT === point) process.kill(process.pid, 'SIGKILL');
}
