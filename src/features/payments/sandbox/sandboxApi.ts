import type { SandboxTradeView } from '../../../../contract/payments';
import { http } from '@/lib/http';

/**
 * The sandbox channel's confirmation page calls (server/payments/providers/routes.ts). Public: `s` (from the QR)
 * is the proof; a session, if any, plays no part.
 */
const path = (outTradeNo: string, action = '') => `payments/sandbox/${encodeURIComponent(outTradeNo)}${action}`;

export const sandboxApi = {
  view: (outTradeNo: string, s: string, signal?: AbortSignal) => http.get<SandboxTradeView>(path(outTradeNo), { query: { s }, signal }),
  pay: (outTradeNo: string, s: string) => http.post<SandboxTradeView>(path(outTradeNo, '/pay'), undefined, { query: { s } }),
  fail: (outTradeNo: string, s: string) => http.post<SandboxTradeView>(path(outTradeNo, '/fail'), undefined, { query: { s } }),
};
