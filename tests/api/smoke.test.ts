import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server';

let s: TestServer;
beforeAll(async () => { s = await startServer(); });
afterAll(async () => { await s.close(); });

describe('server start', () => {
  it('answers the domain info without a token', async () => {
    const res = await s.request('GET', 'domain');
    expect(res.status).toBe(200);
    expect(res.body.displayName).toBeTruthy();
  });
  it('signs in a demo account and reads its permissions', async () => {
    const token = await s.login('rad1');
    const res = await s.request('GET', 'accounts/me/permissions', { token });
    expect(res.body[String(s.ids.hospitalId)].actions).toContain('report_upsert');
  });
});
