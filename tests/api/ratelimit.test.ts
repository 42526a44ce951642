import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_RULES } from '../../server/http/rateLimit';
import { createAccount, unique } from '../support/accounts';
import { startServer, type TestServer } from '../support/server';

/**
 * The login throttle (architecture "Rate limits"): 5 failures per account or 20 per address inside 15 minutes
 * block that key for 15 minutes with 429 TooManyAttempts. The server trusts X-Forwarded-For from 127.0.0.1 here,
 * as it would behind a proxy, so each test can act from addresses of its own.
 */
let s: TestServer;
beforeAll(async () => { s = await startServer({ exams: 5, trustProxy: ['127.0.0.1'] }); });
afterAll(async () => { await s.close(); });

const MIN = 60_000;
let lastOctet = 0;
const newAddress = () => `10.0.${Math.floor(++lastOctet / 250)}.${lastOctet % 250}`;
const attempt = (username: string, password: string, address: string) =>
  s.request('POST', 'accounts/login', { body: { username, password }, headers: { 'x-forwarded-for': address } });
const fail = async (username: string, times: number, address = newAddress()) => {
  for (let i = 0; i < times; i++) expect((await attempt(username, `Wrong${i}pw`, address)).status).toBe(401);
};

it('uses the documented limits', () => {
  expect(RATE_RULES.loginAccount).toEqual({ limit: 5, windowMs: 15 * MIN, blockMs: 15 * MIN });
  expect(RATE_RULES.loginAddress).toEqual({ limit: 20, windowMs: 15 * MIN, blockMs: 15 * MIN });
});

describe('per account', () => {
  it('blocks the account after 5 failures with 429 TooManyAttempts and retryAfter, even for the right password', async () => {
    const acc = await createAccount(s);
    await fail(acc.username, 5);
    const blocked = await attempt(acc.username, acc.password, newAddress());
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({ code: 'TooManyAttempts', message: 'Too many attempts, please try again later', details: { retryAfter: 900 } });
  });

  it('counts down retryAfter with the clock and lets the account in once the block has passed', async () => {
    const acc = await createAccount(s);
    await fail(acc.username, 5);
    s.clock.advance(5 * MIN);
    expect((await attempt(acc.username, acc.password, newAddress())).body.details).toEqual({ retryAfter: 600 });
    s.clock.advance(10 * MIN - 1000);
    expect((await attempt(acc.username, acc.password, newAddress())).body.details).toEqual({ retryAfter: 1 });
    s.clock.advance(1000);
    expect((await attempt(acc.username, acc.password, newAddress())).status).toBe(200);
  });

  it('blocks the account from every address, and no other account', async () => {
    const acc = await createAccount(s);
    const other = await createAccount(s);
    const address = newAddress();
    for (let i = 0; i < 5; i++) await attempt(acc.username, 'Wrong123', newAddress());
    expect((await attempt(acc.username, acc.password, address)).status).toBe(429);
    expect((await attempt(other.username, other.password, address)).status).toBe(200);
  });

  it('resets the account counter on a success', async () => {
    const acc = await createAccount(s);
    await fail(acc.username, 4);
    expect((await attempt(acc.username, acc.password, newAddress())).status).toBe(200);
    await fail(acc.username, 4);
    expect((await attempt(acc.username, acc.password, newAddress())).status).toBe(200);
  });

  it('forgets failures older than the 15-minute window', async () => {
    const acc = await createAccount(s);
    await fail(acc.username, 4);
    s.clock.advance(15 * MIN + 1000);
    await fail(acc.username, 4);
    expect((await attempt(acc.username, acc.password, newAddress())).status).toBe(200);
  });

  it('counts a username however it is spelled (case, surrounding spaces)', async () => {
    const acc = await createAccount(s, { username: unique('Mixed') });
    for (const spelling of [acc.username, acc.username.toUpperCase(), ` ${acc.username.toLowerCase()} `, acc.username, acc.username]) {
      expect((await attempt(spelling, 'Wrong123', newAddress())).status).toBe(401);
    }
    expect((await attempt(acc.username, acc.password, newAddress())).status).toBe(429);
  });

  it('throttles an unknown username exactly like a real one, so the answer reveals nothing', async () => {
    const ghost = unique('ghost');
    await fail(ghost, 5);
    const res = await attempt(ghost, 'Whatever1', newAddress());
    expect(res.status).toBe(429);
    expect(res.body.details).toEqual({ retryAfter: 900 });
  });

  it('counts update-password failures in the same throttle', async () => {
    const acc = await createAccount(s);
    for (let i = 0; i < 5; i++) {
      const res = await s.request('POST', 'accounts/update-password', {
        body: { username: acc.username, oldPwd: `Wrong${i}pw`, newPwd: 'Better#123' }, headers: { 'x-forwarded-for': newAddress() },
      });
      expect(res.status).toBe(401);
    }
    expect((await attempt(acc.username, acc.password, newAddress())).status).toBe(429);
    const update = await s.request('POST', 'accounts/update-password', {
      body: { username: acc.username, oldPwd: acc.password, newPwd: 'Better#123' }, headers: { 'x-forwarded-for': newAddress() },
    });
    expect(update.status).toBe(429);
  });
});

describe('per address', () => {
  it('blocks an address after 20 failures on any accounts, even for a right password, and no other address', async () => {
    const address = newAddress();
    for (let i = 0; i < 20; i++) expect((await attempt(unique('spray'), 'Demo1234', address)).status).toBe(401);
    const blocked = await attempt('rad1', 'Demo1234', address);
    expect(blocked.status).toBe(429);
    expect(blocked.body.details).toEqual({ retryAfter: 900 });
    expect((await attempt('rad1', 'Demo1234', newAddress())).status).toBe(200);
  });

  it('is not reset by a success from that address', async () => {
    const address = newAddress();
    for (let i = 0; i < 19; i++) await attempt(unique('spray'), 'Demo1234', address);
    expect((await attempt('rad2', 'Demo1234', address)).status).toBe(200);
    expect((await attempt(unique('spray'), 'Demo1234', address)).status).toBe(401);
    expect((await attempt('rad2', 'Demo1234', address)).status).toBe(429);
  });

  it('lifts the address block after 15 minutes', async () => {
    const address = newAddress();
    for (let i = 0; i < 20; i++) await attempt(unique('spray'), 'Demo1234', address);
    expect((await attempt('chief', 'Demo1234', address)).status).toBe(429);
    s.clock.advance(15 * MIN);
    expect((await attempt('chief', 'Demo1234', address)).status).toBe(200);
  });

  it('counts the connection\'s address when X-Forwarded-For comes from a proxy it does not trust', async () => {
    const inject = (forwarded: string) => s.app.inject({
      method: 'POST', url: '/api/v1/accounts/login', remoteAddress: '192.0.2.7',
      headers: { 'x-forwarded-for': forwarded }, payload: { username: unique('spray'), password: 'Demo1234' },
    });
    for (let i = 0; i < 20; i++) expect((await inject(newAddress())).statusCode).toBe(401);
    const res = await inject(newAddress());
    expect(res.statusCode).toBe(429);
    expect(res.json().code).toBe('TooManyAttempts');
  });
});
