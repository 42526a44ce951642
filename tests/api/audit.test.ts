import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { auditTrail, recordAudit } from '../../server/audit/record';
import { tokenOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/** The audit trail: who did what to which object, before and after, written with the change and never changed. */
let s: TestServer;
beforeAll(async () => { s = await startServer({ exams: 5 }); });
afterAll(async () => { await s.close(); });

describe('audit trail', () => {
  it('records an account being disabled and enabled, by whom, with the status before and after', async () => {
    const admin = await tokenOf(s, 'admin');
    const id = s.ids.accounts.registrar;
    expect((await s.request('POST', `accounts/${id}/status`, { token: admin, body: { status: 1 } })).status).toBe(204);
    expect((await s.request('POST', `accounts/${id}/status`, { token: admin, body: { status: 0 } })).status).toBe(204);
    const trail = await auditTrail(s.db.db, 'account', id);
    expect(trail.map((e) => [e.action, e.actorId, e.before, e.after])).toEqual([
      ['status', s.ids.accounts.admin, { status: 0 }, { status: 1 }],
      ['status', s.ids.accounts.admin, { status: 1 }, { status: 0 }],
    ]);
    expect(trail.every((e) => e.area === 'accounts' && e.at instanceof Date)).toBe(true);
  });

  it('records a password reset without the password', async () => {
    const admin = await tokenOf(s, 'admin');
    const id = s.ids.accounts.tech;
    expect((await s.request('POST', `accounts/${id}/password/reset`, { token: admin, body: { newPassword: 'Reset2026x' } })).status).toBe(204);
    const [event] = (await auditTrail(s.db.db, 'account', id)).filter((e) => e.action === 'password-reset');
    expect(event?.after).toEqual({ password: 'reset' });
    expect(JSON.stringify(event)).not.toContain('Reset2026x');
  });

  it('writes nothing when the change is refused', async () => {
    const rad1 = await tokenOf(s, 'rad1');
    const id = s.ids.accounts.rad2;
    const before = (await auditTrail(s.db.db, 'account', id)).length;
    expect((await s.request('POST', `accounts/${id}/status`, { token: rad1, body: { status: 1 } })).status).toBe(403);
    expect(await auditTrail(s.db.db, 'account', id)).toHaveLength(before);
  });

  it('leaves no event behind a transaction that fails after writing it', async () => {
    await expect(s.db.db.transaction(async (tx) => {
      await recordAudit(tx, { at: s.clock.now(), actorId: null, area: 'test', action: 'x', objectType: 'probe', objectId: 1 });
      throw new Error('the change failed');
    })).rejects.toThrow('the change failed');
    expect(await auditTrail(s.db.db, 'probe', 1)).toEqual([]);
  });

  it('refuses to change or delete an event', async () => {
    await recordAudit(s.db.db, { at: s.clock.now(), actorId: null, area: 'test', action: 'x', objectType: 'probe', objectId: 2 });
    await expect(s.db.db.execute(sql`update audit_events set action = 'y' where object_type = 'probe'`)).rejects.toThrow();
    await expect(s.db.db.execute(sql`delete from audit_events where object_type = 'probe'`)).rejects.toThrow();
    expect(await auditTrail(s.db.db, 'probe', 2)).toHaveLength(1);
  });
});
