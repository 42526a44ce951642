import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GLOBAL_CONFIG_DEFAULTS, GLOBAL_CONFIG_KEYS } from '../../contract/globalConfigs';
import * as t from '../../server/db/schema';
import { DEMO_GLOBAL_CONFIGS } from '../../server/seed/globalConfigs';
import { tokenOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/** global-configs/query?keys (areas §7): whitelisted keys only, any signed-in account, defaults for what is not stored. */
let s: TestServer;
let rad1: string;

beforeAll(async () => {
  s = await startServer({ exams: 0 });
  rad1 = await tokenOf(s, 'rad1');
});
afterAll(async () => { await s.close(); });

const query = (keys: string, token = rad1) => s.request('GET', `global-configs/query?keys=${encodeURIComponent(keys)}`, { token });

describe('global configs', () => {
  it('answer the requested keys with the seeded values, and only those', async () => {
    const res = await query('supportPhone,helpUrl,sampleGraphMaxMb');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ supportPhone: DEMO_GLOBAL_CONFIGS.supportPhone, helpUrl: DEMO_GLOBAL_CONFIGS.helpUrl, sampleGraphMaxMb: DEMO_GLOBAL_CONFIGS.sampleGraphMaxMb });
    const all = await query(GLOBAL_CONFIG_KEYS.join(','), await tokenOf(s, 'expert'));
    expect(all.status).toBe(200);
    expect(all.body).toEqual(DEMO_GLOBAL_CONFIGS);
  });

  it('give the default for a key without a row or with a value of the wrong kind', async () => {
    await s.db.db.delete(t.globalConfigs).where(eq(t.globalConfigs.key, 'supportEmail'));
    await s.db.db.update(t.globalConfigs).set({ value: 'lots' }).where(eq(t.globalConfigs.key, 'sampleGraphMaxMb'));
    try {
      const res = await query('supportEmail,sampleGraphMaxMb,learningEnabled');
      expect(res.body).toEqual({ supportEmail: GLOBAL_CONFIG_DEFAULTS.supportEmail, sampleGraphMaxMb: GLOBAL_CONFIG_DEFAULTS.sampleGraphMaxMb, learningEnabled: true });
    } finally {
      await s.db.db.insert(t.globalConfigs).values({ key: 'supportEmail', value: DEMO_GLOBAL_CONFIGS.supportEmail }).onConflictDoNothing();
      await s.db.db.update(t.globalConfigs).set({ value: DEMO_GLOBAL_CONFIGS.sampleGraphMaxMb }).where(eq(t.globalConfigs.key, 'sampleGraphMaxMb'));
    }
  });

  it('refuse unknown, empty, repeated and missing keys with ParamsError', async () => {
    for (const keys of ['jwtSecret', 'helpUrl,nope', '', ',', 'helpUrl,helpUrl', 'helpUrl,,supportPhone', 'x'.repeat(600)]) {
      const res = await query(keys);
      expect(res.status, keys).toBe(400);
      expect(res.body.code).toBe('ParamsError');
    }
    expect((await s.request('GET', 'global-configs/query', { token: rad1 })).body.code).toBe('ParamsError');
    expect((await s.request('GET', 'global-configs/query?keys=helpUrl&other=1', { token: rad1 })).status).toBe(400);
    expect((await s.request('GET', 'global-configs/query?keys=helpUrl&keys=supportPhone', { token: rad1 })).status).toBe(400);
  });

  it('need a signed-in account', async () => {
    expect((await s.request('GET', 'global-configs/query?keys=helpUrl')).status).toBe(401);
    expect((await s.request('GET', 'global-configs/query?keys=helpUrl', { token: 'not-a-token' })).status).toBe(401);
  });
});
