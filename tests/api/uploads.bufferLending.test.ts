import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalStorage } from '../../server/storage/local';
import { createSigner } from '../../server/storage/signer';
import type { Storage } from '../../server/storage/types';
import { CT_SERIES, asNewInstance, sample } from '../support/dicom';
import { startServer, type TestServer } from '../support/server';
import { initUpload, putFile } from '../support/uploads';

/**
 * Whole files' buffers are reused from one file to the next only for local storage (server/uploads/ingest.ts), whose
 * `put` has written every byte when it resolves. Another store's client may still be sending them: here a store that
 * answers at once and writes a moment later, as a client still streaming to S3 would. Each file it writes must be the
 * very bytes it was given, not the next file's, which a reused buffer would hold by then.
 */
let s: TestServer;
let files: string;
const given = new Map<string, Buffer>();
const writes: Promise<unknown>[] = [];

beforeAll(async () => {
  files = mkdtempSync(path.join(tmpdir(), 'lending-'));
  s = await startServer({
    exams: 10,
    storage: (clock): Storage => {
      const local = createLocalStorage({ root: files, signer: createSigner(randomBytes(16).toString('hex')), clock });
      return {
        ...local,
        kind: 's3',
        // An S3 store's links are absolute (the app puts their origin in its content security policy).
        readUrl: async (key) => `http://files.test/${key}`,
        async put(key, body, opts) {
          if (!(body instanceof Uint8Array)) return local.put(key, body, opts);
          given.set(key, Buffer.from(body));
          writes.push(new Promise((resolve) => setTimeout(resolve, 50)).then(() => local.put(key, body, opts)));
          return { size: body.length };
        },
      };
    },
  });
});
afterAll(async () => {
  await s.close();
  rmSync(files, { recursive: true, force: true });
});

describe('a store that may still be sending when put resolves', () => {
  it('gets a buffer of its own for every file', async () => {
    const session = await initUpload(s, await s.login('tech'), s.ids.hospitalId);
    const sent = Array.from({ length: 6 }, (_, i) => asNewInstance(sample(CT_SERIES[i % CT_SERIES.length]!), 4100 + i));
    // One after another: each file is answered (and a pooled buffer would be given back) before the next arrives.
    for (const file of sent) expect((await putFile(s, session.credentials.token, file)).body.status).toBe('stored');
    await Promise.all(writes);
    const dicomKeys = [...given.keys()].filter((k) => k.startsWith('dicom/'));
    expect(dicomKeys).toHaveLength(sent.length);
    const stored = await Promise.all(dicomKeys.map(async (key) => {
      const chunks: Buffer[] = [];
      for await (const chunk of await s.storage.get(key)) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    }));
    stored.forEach((bytes, i) => expect(bytes.equals(given.get(dicomKeys[i]!)!)).toBe(true));
    expect(stored.map((b) => b.toString('base64')).sort()).toEqual(sent.map((b) => Buffer.from(b).toString('base64')).sort());
  });
});
