import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, parseTrustProxy } from '../../server/config';

/** Configuration by environment (README "Configuration"): defaults, the generated secret, refusals at start. */
const dirs: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'config-test-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

describe('loadConfig', () => {
  it('has the README defaults', () => {
    const dir = dataDir();
    const c = loadConfig({ DATA_DIR: dir });
    expect(c).toMatchObject({
      port: 8080, host: '0.0.0.0', dataDir: dir, databaseUrl: null, tokenTtlSeconds: 43200, scryptCost: 16384, seedDemo: true, trustProxy: false,
    });
  });

  it('starts the HL7 listener on 2575 unless told otherwise, and refuses bad HL7 settings at start', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).hl7).toEqual({ port: 2575, tls: null, maxBytes: 1024 * 1024 });
    expect(loadConfig({ DATA_DIR: dataDir(), HL7_PORT: '0' }).hl7).toBeNull();
    expect(loadConfig({ DATA_DIR: dataDir(), HL7_PORT: '6661', HL7_MAX_BYTES: '65536' }).hl7).toEqual({ port: 6661, tls: null, maxBytes: 65536 });
    for (const bad of ['-1', 'abc', '70000']) expect(() => loadConfig({ DATA_DIR: dataDir(), HL7_PORT: bad })).toThrow(/HL7_PORT/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), HL7_MAX_BYTES: '10' })).toThrow(/HL7_MAX_BYTES/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), HL7_TLS_KEY: '/nonexistent.key' })).toThrow(/HL7_TLS_CERT and HL7_TLS_KEY/);
  });

  it('starts the DICOM listener on 11112 as RADWS unless told otherwise, and refuses bad DICOM settings at start', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).dicom).toEqual({ port: 11112, aeTitle: 'RADWS', tls: null });
    expect(loadConfig({ DATA_DIR: dataDir(), DICOM_PORT: '0' }).dicom).toBeNull();
    expect(loadConfig({ DATA_DIR: dataDir(), DICOM_PORT: '4242', DICOM_AE_TITLE: 'PACS_1' }).dicom).toEqual({ port: 4242, aeTitle: 'PACS_1', tls: null });
    for (const bad of ['-1', 'abc', '70000', '1.5']) expect(() => loadConfig({ DATA_DIR: dataDir(), DICOM_PORT: bad })).toThrow(/DICOM_PORT/);
    for (const bad of ['lower', 'MUCH_TOO_LONG_AE_TITLE', 'BACK\\SLASH']) expect(() => loadConfig({ DATA_DIR: dataDir(), DICOM_AE_TITLE: bad })).toThrow(/DICOM_AE_TITLE/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), DICOM_TLS_CERT: '/nonexistent.pem' })).toThrow(/DICOM_TLS_CERT and DICOM_TLS_KEY/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), DICOM_TLS_CERT: '/nonexistent.pem', DICOM_TLS_KEY: '/nonexistent.key' })).toThrow(/DICOM_TLS_CERT=/);
  });

  it('reads REQUEST_TIMEOUT_MS (default ten minutes) and refuses a bad one at start', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).requestTimeoutMs).toBe(600_000);
    expect(loadConfig({ DATA_DIR: dataDir(), REQUEST_TIMEOUT_MS: '30000' }).requestTimeoutMs).toBe(30_000);
    for (const bad of ['0', '-1', 'abc', '1.5', String(25 * 3600_000)]) expect(() => loadConfig({ DATA_DIR: dataDir(), REQUEST_TIMEOUT_MS: bad })).toThrow(/REQUEST_TIMEOUT_MS/);
  });

  it('reads the LiveKit settings all three together (none: video off) and refuses some without the others', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).livekit).toBeNull();
    const all = { LIVEKIT_URL: 'wss://video.example.org', LIVEKIT_API_KEY: 'APIkey', LIVEKIT_API_SECRET: 'secret-of-the-sfu' };
    expect(loadConfig({ DATA_DIR: dataDir(), ...all }).livekit).toEqual({ url: 'wss://video.example.org', apiKey: 'APIkey', apiSecret: 'secret-of-the-sfu' });
    expect(() => loadConfig({ DATA_DIR: dataDir(), LIVEKIT_URL: all.LIVEKIT_URL })).toThrow(/LIVEKIT_/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...all, LIVEKIT_API_SECRET: ' ' })).toThrow(/LIVEKIT_/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...all, LIVEKIT_URL: 'video.example.org' })).toThrow(/LIVEKIT_URL/);
  });

  it('generates the token secret once into DATA_DIR, readable by the owner only, and keeps it across restarts', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir }).tokenSecret;
    expect(first.length).toBeGreaterThanOrEqual(64);
    expect(readFileSync(path.join(dir, 'token-secret'), 'utf8').trim()).toBe(first);
    expect(statSync(path.join(dir, 'token-secret')).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dir }).tokenSecret).toBe(first);
    expect(loadConfig({ DATA_DIR: dataDir() }).tokenSecret).not.toBe(first);
  });

  it('takes TOKEN_SECRET, DATABASE_URL and the numbers from the environment', () => {
    const c = loadConfig({
      DATA_DIR: dataDir(), TOKEN_SECRET: 'from-env', DATABASE_URL: 'postgres://db/x', PORT: '9000', TOKEN_TTL_SECONDS: '600',
      SCRYPT_COST: '32768', SEED_DEMO: '0',
    });
    expect(c).toMatchObject({ tokenSecret: 'from-env', databaseUrl: 'postgres://db/x', port: 9000, tokenTtlSeconds: 600, scryptCost: 32768, seedDemo: false });
  });

  it.each([
    ['PORT', 'abc'], ['PORT', '70000'], ['TOKEN_TTL_SECONDS', '12h'], ['TOKEN_TTL_SECONDS', '0'],
    ['SCRYPT_COST', '10000'], ['SCRYPT_COST', '512'], ['SCRYPT_COST', 'high'],
  ])('refuses %s=%s at start with a message naming it', (name, value) => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), [name]: value })).toThrow(new RegExp(`^${name}=`));
  });
});

describe('TRUST_PROXY', () => {
  it.each([
    [undefined, false], ['', false], ['false', false], ['true', true], ['1', 1], ['2', 2],
    ['127.0.0.1', ['127.0.0.1']], ['10.0.0.0/8, 127.0.0.1', ['10.0.0.0/8', '127.0.0.1']],
  ] as const)('reads %j as %j', (value, expected) => {
    expect(parseTrustProxy(value)).toEqual(expected);
  });
});
