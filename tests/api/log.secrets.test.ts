import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScreenToken } from '../../contract/calling';
import type { ChargeOrderView } from '../../contract/payments';
import { REDACTED } from '../../server/http/redact';
import { applyFor } from '../support/money';
import { tokenOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/**
 * Issue 32 "Secrets in the request log": a server started with its logger on writes every line to a captured text;
 * requests carry a calling screen's token, a signed file token, the payment sandbox's `s` signature, a JWT and an
 * upload code in the path. The captured log holds none of them, and the redaction marker where they were.
 */
let s: TestServer;
let log = '';

beforeAll(async () => {
  s = await startServer({ exams: 5, logger: { level: 'info', stream: { write: (line: string) => { log += line; } } } });
});
afterAll(async () => {
  await s?.close();
});

describe('the request log', () => {
  it('names the routes but none of the permits they were called with', async () => {
    const secrets: string[] = [];

    // A calling screen's token (valid until revoked), in the query of the screen's state.
    const registrar = await tokenOf(s, 'registrar');
    const issued = await s.request('POST', `buckets/${s.ids.hospitalId}/screen-tokens`, { token: registrar, body: { name: '候诊大厅' } });
    expect(issued.status).toBe(200);
    const screen = (issued.body as ScreenToken).token!;
    secrets.push(screen);
    expect((await fetch(`${s.url}/api/v1/buckets/${s.ids.hospitalId}/screen/state?token=${encodeURIComponent(screen)}`)).status).toBe(200);

    // A signed file token, as storage hands it out.
    await s.storage.put('log-test/a.txt', Buffer.from('hello'), { contentType: 'text/plain' });
    const signed = await s.storage.readUrl('log-test/a.txt', { expiresInSeconds: 60 });
    const fileToken = new URL(signed, s.url).searchParams.get('token')!;
    secrets.push(fileToken);
    expect((await fetch(new URL(signed, s.url))).status).toBe(200);

    // The payment sandbox's page signature `s`.
    const order = await applyFor(s);
    const charge = (await s.request('GET', `charge/${order.id}/pre-paid-order`, { token: await tokenOf(s, 'rad1') })).body as ChargeOrderView;
    const sig = new URL(charge.codeUrl!).searchParams.get('s')!;
    secrets.push(sig);
    expect((await s.request('GET', `payments/sandbox/${charge.outTradeNo}?s=${encodeURIComponent(sig)}`)).status).toBe(200);

    // A JWT under a name that says nothing (the rule looks at the value too), and a bearer in the query of a 404.
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIiwibmFtZSI6InJhZDEifQ.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg';
    secrets.push(jwt);
    await s.request('GET', `exams/query?x=${jwt}`);
    const bearer = await tokenOf(s, 'rad1');
    secrets.push(bearer);
    await s.request('GET', `no-such-route?access_token=${encodeURIComponent(bearer)}`);

    // An upload code in the path (a permit to add attachments to a report).
    const upload = 'Zq8Xk2LmN4pR7sT1vW3yB5cD';
    secrets.push(upload);
    await s.request('GET', `upload-codes/${upload}`);

    const lines = log.trim().split('\n').map((l) => JSON.parse(l) as { req?: { url?: string } });
    const urls = lines.flatMap((l) => (l.req?.url ? [l.req.url] : []));
    // The routes are still there to read…
    expect(urls).toContain(`/api/v1/buckets/${s.ids.hospitalId}/screen/state?token=${REDACTED}`);
    expect(urls).toContain(`/api/v1/files?token=${REDACTED}`);
    expect(urls).toContain(`/api/v1/payments/sandbox/${charge.outTradeNo}?s=${REDACTED}`);
    expect(urls).toContain(`/api/v1/exams/query?x=${REDACTED}`);
    expect(urls).toContain(`/api/v1/no-such-route?access_token=${REDACTED}`);
    expect(urls).toContain(`/api/v1/upload-codes/${REDACTED}`);
    // …and no secret is anywhere in the log, raw or URL-encoded.
    for (const secret of secrets) {
      expect(log).not.toContain(secret);
      expect(log).not.toContain(encodeURIComponent(secret));
    }
  });

  it('logs a verification text with its code masked when no SMS sender is configured and no outbox is on', async () => {
    const token = await tokenOf(s, 'rad1');
    const asked = await s.request('POST', 'accounts/me/code/bind-mobile', { token, body: { mobile: '13912345678' } });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    const lines = log.trim().split('\n').map((l) => JSON.parse(l) as { sms?: { mobile: string; text: string } });
    const sms = lines.flatMap((l) => (l.sms ? [l.sms] : []));
    expect(sms).toHaveLength(1);
    expect(sms[0]!.text).toContain('Verification code ******:');
    expect(sms[0]!.text).not.toMatch(/\d{4,}/);
  });
});
