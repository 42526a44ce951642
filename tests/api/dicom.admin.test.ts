import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '../../contract/common';
import type { DicomAssociation, DicomNode, EchoResult } from '../../contract/dicomAdmin';
import type { Device } from '../../contract/organizations';
import { auditTrail } from '../../server/audit/record';
import { createGroup } from '../support/accounts';
import { dcmtk } from '../support/dcmtk';
import { tokenOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';
import { freePort, listening } from '../support/ports';

/**
 * The DICOM listener as an organisation admin sees it (server/dicom/routes.ts, issue 33 "Screens"): this node's AE
 * title, host and port; devices' host and port; "accept unknown senders"; a C-ECHO to a device, against dcmtk's
 * storescp (a real SCP nobody here wrote) and against a closed port; the recent associations, newest first.
 */
let s: TestServer;
let admin: string;
let hospital: number;
let scp: ChildProcess | null = null;
let scpPort = 0;



beforeAll(async () => {
  s = await startServer({ exams: 0, dicom: true });
  admin = await s.login('admin');
  hospital = s.ids.hospitalId;
  scpPort = await freePort();
  scp = spawn('storescp', ['-aet', 'PACS_SCP', '--output-directory', '/tmp', String(scpPort)], { stdio: 'ignore' });
  await listening(scpPort);
});
afterAll(async () => {
  scp?.kill();
  await s.close();
});

const device = async (body: Record<string, unknown>) => s.request('POST', `buckets/${hospital}/devices`, { token: admin, body: { name: 'PACS', modality: 'OT', ...body } });

describe('the DICOM node of an organisation', () => {
  it('tells its admin the AE title, host and port modalities call; others are refused', async () => {
    const r = await s.request('GET', `buckets/${hospital}/dicom/node`, { token: admin });
    expect(r.status).toBe(200);
    expect(r.body as DicomNode).toEqual({ aeTitle: 'RADWS', host: '127.0.0.1', port: s.dicom!.port, listening: true });
    expect((await s.request('GET', `buckets/${hospital}/dicom/node`, { token: await tokenOf(s, 'rad1') })).status).toBe(403);
    const other = await createGroup(s);
    expect((await s.request('GET', `buckets/${other.bucketId}/dicom/node`, { token: admin })).status).toBe(404);
  });

  it('keeps a host and port on a device, and refuses a bad one with ParamsError', async () => {
    const created = await device({ aeTitle: 'pacs_a', host: 'pacs.example.org', port: 104 });
    expect(created.status).toBe(200);
    expect(created.body as Device).toMatchObject({ aeTitle: 'PACS_A', host: 'pacs.example.org', port: 104 });
    const id = (created.body as Device).id;
    const updated = await s.request('PUT', `buckets/${hospital}/devices/${id}`, { token: admin, body: { name: 'PACS', modality: 'OT', aeTitle: 'PACS_A', host: '10.0.0.7', port: 11112 } });
    expect(updated.body as Device).toMatchObject({ host: '10.0.0.7', port: 11112 });
    for (const bad of [{ host: 'bad host' }, { host: 'a..b' }, { port: 0 }, { port: 65536 }, { port: 1.5 }, { host: '-x.org' }]) {
      const r = await device({ host: 'pacs', port: 104, ...bad });
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect((r.body as { code: string }).code).toBe('ParamsError');
    }
  });

  it('switches "accept unknown senders" for admins only, with an audit trail', async () => {
    expect((await s.request('GET', `buckets/${hospital}/dicom/settings`, { token: admin })).body).toEqual({ acceptUnknownSenders: false });
    expect((await s.request('PUT', `buckets/${hospital}/dicom/settings`, { token: await tokenOf(s, 'rad1'), body: { acceptUnknownSenders: true } })).status).toBe(403);
    expect((await s.request('PUT', `buckets/${hospital}/dicom/settings`, { token: admin, body: { acceptUnknownSenders: 'yes' } })).status).toBe(400);
    expect((await s.request('PUT', `buckets/${hospital}/dicom/settings`, { token: admin, body: { acceptUnknownSenders: true } })).body).toEqual({ acceptUnknownSenders: true });
    expect((await s.request('GET', `buckets/${hospital}/dicom/settings`, { token: admin })).body).toEqual({ acceptUnknownSenders: true });
    const trail = await auditTrail(s.db.db, 'bucket', hospital);
    expect(trail.at(-1)).toMatchObject({ action: 'dicom-settings', before: { acceptUnknownSenders: false }, after: { acceptUnknownSenders: true } });
    // The listener reads the switch: an unknown AE is now let in to this organisation.
    const r = await dcmtk('echoscu', ['-aet', 'NOBODY_KNOWS', '-aec', 'RADWS', '127.0.0.1', String(s.dicom!.port)]);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    await s.request('PUT', `buckets/${hospital}/dicom/settings`, { token: admin, body: { acceptUnknownSenders: false } });
  });

  it('echoes a device: ok with the round trip against storescp, refused at a closed port, 400 without an address', async () => {
    const ok = await device({ aeTitle: 'PACS_SCP', host: '127.0.0.1', port: scpPort });
    const echoOk = await s.request('POST', `buckets/${hospital}/devices/${(ok.body as Device).id}/echo`, { token: admin });
    expect(echoOk.status).toBe(200);
    expect(echoOk.body as EchoResult).toMatchObject({ ok: true, failure: null });
    expect((echoOk.body as EchoResult).ms).toBeGreaterThanOrEqual(0);

    const closed = await device({ aeTitle: 'GONE', host: '127.0.0.1', port: await freePort() });
    const echoClosed = await s.request('POST', `buckets/${hospital}/devices/${(closed.body as Device).id}/echo`, { token: admin });
    expect(echoClosed.body as EchoResult).toMatchObject({ ok: false, failure: 'refused', detail: 'ECONNREFUSED' });

    // Our own listener, called under a title that is not its own: A-ASSOCIATE-RJ.
    const self = await device({ aeTitle: 'NOT_US', host: '127.0.0.1', port: s.dicom!.port });
    const echoSelf = await s.request('POST', `buckets/${hospital}/devices/${(self.body as Device).id}/echo`, { token: admin });
    expect(echoSelf.body as EchoResult).toMatchObject({ ok: false, failure: 'rejected' });

    const none = await device({ aeTitle: 'NOADDR' });
    const echoNone = await s.request('POST', `buckets/${hospital}/devices/${(none.body as Device).id}/echo`, { token: admin });
    expect(echoNone.status).toBe(400);
    expect((echoNone.body as { code: string }).code).toBe('DeviceNoAddress');
    expect((await s.request('POST', `buckets/${hospital}/devices/99999999/echo`, { token: admin })).status).toBe(404);
    expect((await s.request('POST', `buckets/${hospital}/devices/${(ok.body as Device).id}/echo`, { token: await tokenOf(s, 'rad1') })).status).toBe(403);
  });

  it('lists the organisation\'s associations newest first on the page-query engine', async () => {
    const r1 = await dcmtk('echoscu', ['-aet', 'CT1_SCANNER', '-aec', 'RADWS', '127.0.0.1', String(s.dicom!.port)]);
    expect(r1.code, r1.stderr).toBe(0);
    s.clock.advance(1000);
    const r2 = await dcmtk('echoscu', ['-aet', 'CT1_SCANNER', '-aec', 'RADWS', '127.0.0.1', String(s.dicom!.port)]);
    expect(r2.code, r2.stderr).toBe(0);
    let page: Page<DicomAssociation>;
    for (;;) {
      page = (await s.request('POST', `buckets/${hospital}/dicom/associations/query`, { token: admin, body: { filters: [{ field: 'callingAe', operator: 'equal', values: ['CT1_SCANNER'] }] } })).body as Page<DicomAssociation>;
      if (page.total >= 2 && page.items.every((a) => a.ended)) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(page.items[0]).toMatchObject({ callingAe: 'CT1_SCANNER', calledAe: 'RADWS', outcome: 'released', services: ['echo'] });
    const started = page.items.map((a) => a.started);
    expect([...started].sort().reverse()).toEqual(started);
    expect(page.items[0]!.id).toBeGreaterThan(page.items[1]!.id);
    const bad = await s.request('POST', `buckets/${hospital}/dicom/associations/query`, { token: admin, body: { filters: [{ field: 'peer', operator: 'equal', values: ['x'] }] } });
    expect(bad.status).toBe(400);
  });
});
