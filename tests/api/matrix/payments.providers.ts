import { randomBytes } from 'node:crypto';
import { PAYMENT_CODE_TTL_MS } from '../../../contract/payments';
import { sandboxSecret } from '../../../server/payments/providers/index';
import { createSandboxProvider } from '../../../server/payments/providers/sandbox';
import type { TestServer } from '../../support/server';
import { statuses, type MatrixRow } from './types';

/**
 * Payments, providers part (server/payments/providers/routes.ts). All public: the channel's notification proves
 * itself by its signature (an unsigned one is 401 for everyone), the sandbox page by the `s` of its trade (whoever
 * holds the QR may pay it, signed in or not). Each role's call gets a fresh sandbox trade, so paying it once does not
 * change the next role's answer.
 */
async function sandboxTrade(s: TestServer): Promise<{ outTradeNo: string; sig: string }> {
  const sandbox = createSandboxProvider({ db: s.db.db, clock: s.clock, secret: sandboxSecret(s), deliver: async () => {} });
  const outTradeNo = `CM${randomBytes(6).toString('hex')}`;
  const { codeUrl } = await sandbox.createNative({
    outTradeNo, description: 'matrix', amountFen: 100, expiresAt: new Date(s.clock.now().getTime() + PAYMENT_CODE_TTL_MS), notifyUrl: `${s.url}/api/v1/payments/notify/sandbox`,
  });
  return { outTradeNo, sig: new URL(codeUrl).searchParams.get('s')! };
}
const sandboxPath = (suffix = '') => ({ fixture }: { fixture: { outTradeNo: string; sig: string } }) => `/payments/sandbox/${fixture.outTradeNo}${suffix}?s=${fixture.sig}`;

export const rows: MatrixRow[] = [
  { method: 'POST', route: '/payments/notify/:provider', path: () => '/payments/notify/sandbox', body: () => ({ id: 'unsigned' }), expect: statuses(401) },
  { method: 'GET', route: '/payments/sandbox/:outTradeNo', setup: sandboxTrade, path: sandboxPath(), expect: statuses(200) },
  { method: 'POST', route: '/payments/sandbox/:outTradeNo/pay', setup: sandboxTrade, path: sandboxPath('/pay'), expect: statuses(200) },
  { method: 'POST', route: '/payments/sandbox/:outTradeNo/fail', setup: sandboxTrade, path: sandboxPath('/fail'), expect: statuses(200) },
];
