import type { Deps } from '../../deps';
import { applyChannelEvent } from '../money/settle';
import type { PaymentProvider } from './provider';

/**
 * What happens to a channel notification, whoever brings it: the notify route (WeChat Pay calling in) and the
 * sandbox (handing its own in). Verifies it (PaymentNotificationInvalid when the signature, serial or time window
 * is off) and gives the event to the money side, which records the notification and its effect in one
 * transaction: a repeat (same notification id) changes nothing. Anything else thrown is an internal failure the
 * channel should retry.
 */
export async function receiveNotification(
  deps: Deps, provider: PaymentProvider, headers: Record<string, string | string[] | undefined>, rawBody: string,
): Promise<'applied' | 'duplicate' | 'ignored'> {
  const verified = await provider.verifyNotification(headers, rawBody);
  // Event types the product does not act on (or a refund state it need not record) are acknowledged, so the
  // channel stops sending them.
  if (!verified.event) return 'ignored';
  return applyChannelEvent(deps, verified.event, { provider: provider.name, id: verified.id, eventType: verified.eventType, resource: verified.resource });
}
