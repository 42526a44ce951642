import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import type { ChargeOrderView, ChargePackage, ReportOrderDetail } from '../../../../contract/payments';
import { chargeMachine, type ChargeCode } from '../../../../machines/charge';
import { isHttpError } from '@/lib/http';
import { chargeApi } from './api';

/** Areas §7: the charge page asks payment-status every 2 s; the countdown ticks every second. */
export const POLL_MS = 2000;
const TICK_MS = 1000;

const codeOf = (charge: ChargeOrderView): ChargeCode => ({ id: charge.id, outTradeNo: charge.outTradeNo, expiresAt: Date.parse(charge.expiresAt) });

/**
 * Drives machines/charge.ts with the API: asks for a code when the machine is `creating` (refresh=1 when it says
 * `replace`), polls the status while a code is out (and while one may still be paid late), and ticks the clock.
 * Returns the machine's state, the code the page shows and the events the page sends.
 */
export function useCharge(order: ReportOrderDetail, packages: ChargePackage[]) {
  // The page's clock at mount (a lazy initial state: read once, not on every render).
  const [startedAt] = useState(() => Date.now());
  const actor = useActorRef(chargeMachine, { input: { orderId: order.id, now: startedAt } });
  const state = useSelector(actor, (s) => s.value as string);
  const context = useSelector(actor, (s) => s.context);
  const [shown, setShown] = useState<ChargeOrderView | null>(null);

  // The application's state as read with the page decides the start: paid or closed at once, else the single package.
  useEffect(() => {
    if (order.paymentStatus !== 0 || order.progress === 'withdrawn') {
      actor.send({ type: 'STATUS', paymentStatus: order.paymentStatus, progress: order.progress, chargeStatus: null, now: Date.now() });
      return;
    }
    const first = packages.find((p) => p.kind === 'single') ?? packages[0];
    if (first) actor.send({ type: 'CHOOSE', packageId: first.id });
  }, [actor, order, packages]);

  useEffect(() => {
    if (state !== 'creating' || context.packageId === null) return;
    const controller = new AbortController();
    chargeApi.prePaid(order.id, context.packageId, context.replace, { signal: controller.signal }).then(
      (charge) => {
        setShown(charge);
        actor.send({ type: 'CREATED', code: codeOf(charge), now: Date.now() });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        actor.send({ type: 'CREATE_FAILED', code: isHttpError(error) ? error.code : 'UnknownError' });
      },
    );
    return () => controller.abort();
  }, [actor, state, context.packageId, context.replace, order.id]);

  const polling = state === 'waiting' || state === 'expired';
  useEffect(() => {
    if (!polling) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout>;
    // One call at a time, the next 2 s after the answer: a slow server is never asked twice at once.
    const poll = () => {
      chargeApi.status(order.id, { signal: controller.signal }).then(
        (status) => actor.send({ type: 'STATUS', paymentStatus: status.paymentStatus, progress: status.progress, chargeStatus: status.charge?.status ?? null, now: Date.now() }),
        () => undefined, // a lost poll is asked again on the next round
      ).finally(() => {
        if (!controller.signal.aborted) timer = setTimeout(poll, POLL_MS);
      });
    };
    timer = setTimeout(poll, POLL_MS);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [actor, polling, order.id]);

  useEffect(() => {
    if (state !== 'waiting') return;
    const timer = setInterval(() => actor.send({ type: 'TICK', now: Date.now() }), TICK_MS);
    return () => clearInterval(timer);
  }, [actor, state]);

  return {
    state,
    context,
    charge: shown,
    choose: (packageId: number) => actor.send({ type: 'CHOOSE', packageId }),
    refresh: () => actor.send({ type: 'REFRESH' }),
    retry: () => actor.send({ type: 'RETRY' }),
  };
}
