import { createHash } from 'node:crypto';
import type { Deps } from '../../deps';
import type { PaymentProvider } from './provider';
import { createSandboxProvider } from './sandbox';
import { createWechatV3Provider } from './wechatV3';

/**
 * Where the sandbox hands its notifications: the notify route's own function (notify.ts receiveNotification),
 * registered by routes.ts when the app is built. Not imported here: notify.ts reaches the money side, which asks
 * this module for the provider, and modules must not import each other in a circle.
 */
type NotificationHandler = (deps: Deps, provider: PaymentProvider, headers: Record<string, string>, rawBody: string) => Promise<unknown>;
let notificationHandler: NotificationHandler | null = null;
export function handleSandboxNotificationsWith(handler: NotificationHandler): void {
  notificationHandler = handler;
}

/** One provider per Deps object: the sandbox keeps its pending deliveries, WeChat its parsed keys. */
const cache = new WeakMap<Deps, PaymentProvider>();

/**
 * The QR channel in use: deps.payments when a test injected one; WeChat Pay when config.wechatPay is set; else the
 * sandbox over deps.db. The sandbox's keys come from the server's secret through the storage signer (built from
 * TOKEN_SECRET, persisted in DATA_DIR), so a restart keeps its QR links and notification signatures valid.
 */
export function paymentProvider(deps: Deps): PaymentProvider {
  if (deps.payments) return deps.payments;
  const known = cache.get(deps);
  if (known) return known;
  let provider: PaymentProvider;
  if (deps.config.wechatPay) {
    provider = createWechatV3Provider(deps.config.wechatPay, { now: () => deps.clock.now() });
  } else {
    provider = createSandboxProvider({
      db: deps.db, clock: deps.clock, secret: sandboxSecret(deps),
      deliver: async (headers, body) => {
        if (!notificationHandler) throw new Error('No notification handler: the payment routes are not registered');
        await notificationHandler(deps, provider, headers, body);
      },
    });
  }
  cache.set(deps, provider);
  return provider;
}

/**
 * Where the channel sends its notifications: PUBLIC_ORIGIN when set (behind a proxy the request's own origin may be
 * an inside address WeChat Pay cannot reach), else the origin the request came in at.
 */
export function notifyUrlOf(deps: Deps, origin: string, provider: string): string {
  const base = (deps.config.publicOrigin ?? origin).replace(/\/+$/, '');
  return `${base}/api/v1/payments/notify/${encodeURIComponent(provider)}`;
}

/** The signer is an HMAC keyed by the server secret: its signature of a fixed text is a secret only this server knows. */
export function sandboxSecret(deps: Pick<Deps, 'storage'>): Buffer {
  return createHash('sha256').update(deps.storage.signer.sign('payments-sandbox', {}, 0)).digest();
}
