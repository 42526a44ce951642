import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server';

/** GET domain's analyticsUrl and the page's CSP, with and without the deployment's ANALYTICS_URL. */
let plain: TestServer;
let withCollector: TestServer;
beforeAll(async () => {
  [plain, withCollector] = await Promise.all([
    startServer({ exams: 1 }),
    startServer({ exams: 1, config: { analyticsUrl: 'https://stats.hospital.local/collect' } }),
  ]);
});
afterAll(async () => { await Promise.all([plain.close(), withCollector.close()]); });

describe('page-view analytics hook', () => {
  it('is off by default: GET domain answers analyticsUrl null and the CSP names no collector', async () => {
    const res = await fetch(`${plain.url}/api/v1/domain`);
    expect(((await res.json()) as { analyticsUrl: unknown }).analyticsUrl).toBeNull();
    expect(res.headers.get('content-security-policy')).not.toContain('stats.hospital.local');
  });

  it('hands the configured collector to the client and allows only its origin in connect-src', async () => {
    const res = await fetch(`${withCollector.url}/api/v1/domain`);
    expect(((await res.json()) as { analyticsUrl: unknown }).analyticsUrl).toBe('https://stats.hospital.local/collect');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/connect-src [^;]*https:\/\/stats\.hospital\.local(?=[ ;])/);
    expect(csp).not.toMatch(/script-src [^;]*stats/);
  });
});
