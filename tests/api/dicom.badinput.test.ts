import { count, eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDicomHeader } from '../../contract/dicom';
import { dicomAssociations, dicomInstances, dicomSettings } from '../../server/db/schema';
import { dcmtk } from '../support/dcmtk';
import { sample } from '../support/dicom';
import { A_ABORT, RawPeer, associateRq, commandSet, contextResults, pData, pdu } from '../support/dicomPdu';
import { startServer, type TestServer } from '../support/server';

/**
 * The listener against bad input: every refusal clean (A-ASSOCIATE-RJ with the reason, a rejected presentation
 * context, A-ABORT), nothing half stored, and the listener still serving the next association.
 */
let s: TestServer;
beforeAll(async () => { s = await startServer({ exams: 10, dicom: true }); });
afterAll(async () => { await s.close(); });

const CT = '1.2.840.10008.5.1.4.1.1.2';
const EXPLICIT = '1.2.840.10008.1.2.1';
const echo = (calling = 'CT1_SCANNER', called = 'RADWS') => dcmtk('echoscu', ['-v', '-aet', calling, '-aec', called, '127.0.0.1', String(s.dicom!.port)]);
const instanceCount = async () => (await s.db.db.select({ n: count() }).from(dicomInstances))[0]!.n;
async function storedKeys(): Promise<number> {
  let n = 0;
  for await (const _ of s.storage.list('dicom/')) n++;
  return n;
}
async function stillServing() {
  const r = await echo();
  expect(r.code, r.stdout + r.stderr).toBe(0);
}
async function connect(): Promise<RawPeer> {
  const peer = new RawPeer(s.dicom!.port);
  await peer.connected();
  return peer;
}

describe('association rules', () => {
  it('rejects a wrong called AE title and an unknown calling AE title, and records both', async () => {
    const wrong = await echo('CT1_SCANNER', 'SOMEONE_ELSE');
    expect(wrong.code).not.toBe(0);
    expect(wrong.stdout + wrong.stderr).toMatch(/Called AE Title Not Recognized/i);
    const unknown = await echo('STRANGER');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stdout + unknown.stderr).toMatch(/Calling AE Title Not Recognized/i);
    const rows = await s.db.db.select().from(dicomAssociations).where(eq(dicomAssociations.outcome, 'rejected'));
    expect(rows.map((r) => [r.callingAe, r.calledAe, r.bucketId])).toEqual([['CT1_SCANNER', 'SOMEONE_ELSE', null], ['STRANGER', 'RADWS', null]]);
    await stillServing();
  });

  it('accepts an unknown sender only for the organisation that turned it on', async () => {
    await s.db.db.insert(dicomSettings).values({ bucketId: s.ids.hospitalId, acceptUnknownSenders: true });
    const r = await echo('STRANGER');
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const [last] = await s.db.db.select().from(dicomAssociations).orderBy(dicomAssociations.id).limit(1).offset((await s.db.db.select({ n: count() }).from(dicomAssociations))[0]!.n - 1);
    expect(last).toMatchObject({ callingAe: 'STRANGER', bucketId: s.ids.hospitalId });
    await s.db.db.delete(dicomSettings);
  });

  it('rejects an unsupported abstract syntax\'s context and accepts the others in the same association', async () => {
    const peer = await connect();
    peer.send(associateRq({ called: 'RADWS', calling: 'CT1_SCANNER', contexts: [
      { id: 1, abstract: '1.2.840.10008.1.1', syntaxes: [EXPLICIT] },
      { id: 3, abstract: '1.2.840.10008.5.1.1.1', syntaxes: [EXPLICIT] }, // Basic Film Session: no printing here
      { id: 5, abstract: CT, syntaxes: [EXPLICIT] },
    ] }));
    const ac = await peer.nextPdu();
    expect(ac?.[0]).toBe(2);
    expect([...contextResults(ac!)]).toEqual([[1, 0], [3, 3], [5, 0]]);
    peer.send(A_ABORT);
    peer.end();
  });
});

describe('malformed PDUs', () => {
  it('aborts a 2 GB PDU, an unknown PDU type, a lying length and a truncated request, and keeps serving', async () => {
    // A declared 2 GB P-DATA: refused at its header, before a byte of it is buffered.
    const huge = await connect();
    huge.send(Buffer.from([4, 0, 0x7f, 0xff, 0xff, 0xff, 0, 0, 0, 0]));
    await huge.closed;
    expect(huge.received.subarray(0, 1)).toEqual(Buffer.from([7]));
    // A PDU type that does not exist.
    const unknown = await connect();
    unknown.send(Buffer.from([9, 0, 0, 0, 0, 2, 0, 0]));
    await unknown.closed;
    // A request whose length says more than is sent, then silence, then gone; and one cut off in its middle.
    const lying = await connect();
    const rq = associateRq({ called: 'RADWS', calling: 'CT1_SCANNER', contexts: [{ id: 1, abstract: '1.2.840.10008.1.1', syntaxes: [EXPLICIT] }] });
    const longer = Buffer.from(rq);
    longer.writeUInt32BE(rq.length + 100, 2);
    lying.send(longer);
    await stillServing();
    lying.end();
    const truncated = await connect();
    truncated.send(rq.subarray(0, 30));
    truncated.end();
    // A request whose items lie about their lengths inside a PDU of the right length.
    const garbled = await connect();
    const bad = Buffer.from(rq);
    bad.writeUInt16BE(0xfff0, 6 + 68 + 2);
    garbled.send(bad);
    await Promise.race([garbled.closed, garbled.nextPdu()]);
    garbled.end();
    await stillServing();
  });

  it('stores nothing of a file whose association is aborted in its middle', async () => {
    const before = { rows: await instanceCount(), files: await storedKeys() };
    const file = sample('MR_small.dcm');
    const read = readDicomHeader(file);
    if (!read.ok) throw new Error('MR_small');
    const dataSet = file.subarray(file.indexOf(Buffer.from('DICM')) + 4 + 12 + file.readUInt32LE(file.indexOf(Buffer.from('DICM')) + 4 + 8));
    const peer = await connect();
    peer.send(associateRq({ called: 'RADWS', calling: 'CT1_SCANNER', contexts: [{ id: 1, abstract: read.header.sopClassUid!, syntaxes: [EXPLICIT] }] }));
    expect((await peer.nextPdu())?.[0]).toBe(2);
    peer.send(pData(1, 3, commandSet([
      [0x00000002, read.header.sopClassUid!], [0x00000100, 0x0001], [0x00000110, 1], [0x00000700, 0], [0x00000800, 0x0000], [0x00001000, read.header.sopInstanceUid],
    ])));
    peer.send(pData(1, 0, dataSet.subarray(0, Math.floor(dataSet.length / 2))));
    peer.send(A_ABORT);
    peer.end();
    await stillServing();
    expect({ rows: await instanceCount(), files: await storedKeys() }).toEqual(before);
    const rows = await s.db.db.select().from(dicomAssociations).where(eq(dicomAssociations.outcome, 'aborted'));
    expect(rows.length).toBeGreaterThan(0);
  });
});

describe('fuzz', () => {
  it('survives random association and P-DATA bytes, one connection each, and keeps serving', async () => {
    const rq = associateRq({ called: 'RADWS', calling: 'CT1_SCANNER', contexts: [{ id: 1, abstract: CT, syntaxes: [EXPLICIT] }] });
    await fc.assert(fc.asyncProperty(
      fc.oneof(
        // A real request with bytes changed in place, or cut short.
        fc.tuple(fc.array(fc.tuple(fc.nat(rq.length - 1), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }), fc.nat(rq.length))
          .map(([edits, cut]) => { const b = Buffer.from(rq); for (const [at, v] of edits) b[at] = v; return b.subarray(0, Math.max(cut, 1)); }),
        // A real request, then P-DATA PDUs of random content and declared lengths.
        fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 4 }).map((parts) => Buffer.concat([rq, ...parts.map((p) => pdu(4, Buffer.from(p)))])),
        // Nothing but noise.
        fc.uint8Array({ minLength: 1, maxLength: 200 }).map((b) => Buffer.from(b)),
      ),
      async (bytes) => {
        const peer = await connect();
        peer.send(bytes);
        await Promise.race([peer.closed, new Promise((r) => setTimeout(r, 30))]);
        peer.end();
      },
    ), { numRuns: 60, seed: 33 });
    await stillServing();
    await new Promise((r) => setTimeout(r, 100));
    // Every association the fuzz opened was closed again and recorded as ended.
    const open = (await s.db.db.select().from(dicomAssociations)).filter((r) => r.ended === null);
    expect(open).toEqual([]);
  });
});
