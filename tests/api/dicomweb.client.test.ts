import { createRequire } from 'node:module';
import { api as dwc } from 'dicomweb-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CT_SERIES, asNewInstance, sample, uidOfLength } from '../support/dicom';
import { DW, value } from '../support/dicomweb';
import { startServer, type TestServer } from '../support/server';

/**
 * An OHIF-style client nobody here wrote: dicomweb-client (the library OHIF's DICOMweb data source is built on),
 * in Node with xhr2 standing in for the browser's XMLHttpRequest, pointed at the product with a bearer token, as
 * docs/deployment.md "DICOMweb and OHIF" says. It stores, lists studies, series and instances, and retrieves.
 */
const require = createRequire(import.meta.url);
(globalThis as { XMLHttpRequest?: unknown }).XMLHttpRequest ??= require('xhr2');

let s: TestServer;
/** The calls used here (the package's own typings require options every call leaves out, e.g. `request`). */
type Call = (options: Record<string, unknown>) => Promise<unknown>;
interface Client {
  storeInstances: Call; searchForStudies: Call; searchForSeries: Call; searchForInstances: Call; retrieveInstance: Call;
  retrieveSeries: Call; retrieveSeriesMetadata: Call; retrieveStudyMetadata: Call; retrieveInstanceFrames: Call; retrieveInstanceRendered: Call;
}
const clientOf = (options: Record<string, unknown>) => new dwc.DICOMwebClient(options as unknown as ConstructorParameters<typeof dwc.DICOMwebClient>[0]) as unknown as Client;
let client: Client;
const CT_STUDY = '1.3.6.1.4.1.5962.1.1.0.0.0.1196530851.28319.0.1';
const CT_SERIES_UID = '1.3.6.1.4.1.5962.1.1.0.0.0.1196530851.28319.0.2';
type Ds = Record<string, { vr: string; Value?: unknown[] }>;
const arrayBuffer = (b: Uint8Array) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

beforeAll(async () => {
  s = await startServer({ exams: 3 });
  const tech = await s.login('tech');
  // What OHIF's data source is given: one root for QIDO, WADO and STOW, and the Authorization header.
  client = clientOf({ url: `${s.url}${DW}`, headers: { Authorization: `Bearer ${tech}` }, verbose: false });
});
afterAll(async () => { await s.close(); });

describe('dicomweb-client against the product', () => {
  it('stores instances (STOW-RS)', async () => {
    await client.storeInstances({ datasets: CT_SERIES.map((f) => arrayBuffer(sample(f))) });
    const found = await client.searchForStudies({ queryParams: { StudyInstanceUID: CT_STUDY } }) as Ds[];
    expect(found.map((d) => value(d, '0020000D'))).toEqual([CT_STUDY]);
  });

  it('lists studies, series and instances (QIDO-RS) with query parameters', async () => {
    const studies = await client.searchForStudies({ queryParams: { PatientName: 'Doe*', limit: '10', includefield: 'all' } }) as Ds[];
    expect(studies.map((d) => value(d, '00100010'))).toEqual(['Doe^Archibald']);
    expect(value(studies[0]!, '00201208')).toBe(4);
    const series = await client.searchForSeries({ studyInstanceUID: CT_STUDY }) as Ds[];
    expect(series.map((d) => value(d, '0020000E'))).toEqual([CT_SERIES_UID]);
    const instances = await client.searchForInstances({ studyInstanceUID: CT_STUDY, seriesInstanceUID: CT_SERIES_UID }) as Ds[];
    expect(instances.map((d) => value(d, '00200013'))).toEqual([18, 180, 181, 182]);
  });

  it('retrieves an instance, a series and metadata (WADO-RS) equal to what was stored', async () => {
    const instances = await client.searchForInstances({ studyInstanceUID: CT_STUDY }) as Ds[];
    const sop = value(instances[0]!, '00080018') as string;
    const file = await client.retrieveInstance({ studyInstanceUID: CT_STUDY, seriesInstanceUID: CT_SERIES_UID, sopInstanceUID: sop }) as ArrayBuffer;
    expect(Buffer.compare(Buffer.from(file), sample(CT_SERIES[0]!))).toBe(0);
    const series = await client.retrieveSeries({ studyInstanceUID: CT_STUDY, seriesInstanceUID: CT_SERIES_UID }) as ArrayBuffer[];
    expect(series).toHaveLength(4);
    const metadata = await client.retrieveSeriesMetadata({ studyInstanceUID: CT_STUDY, seriesInstanceUID: CT_SERIES_UID }) as Ds[];
    expect(metadata.map((d) => value(d, '00200013'))).toEqual([18, 180, 181, 182]);
    const study = await client.retrieveStudyMetadata({ studyInstanceUID: CT_STUDY }) as Ds[];
    expect(study).toHaveLength(4);
    const frames = await client.retrieveInstanceFrames({ studyInstanceUID: CT_STUDY, seriesInstanceUID: CT_SERIES_UID, sopInstanceUID: sop, frameNumbers: '1' }) as ArrayBuffer[];
    expect(frames[0]!.byteLength).toBe(16 * 16 * 2);
    const rendered = await client.retrieveInstanceRendered({ studyInstanceUID: CT_STUDY, seriesInstanceUID: CT_SERIES_UID, sopInstanceUID: sop, mediaTypes: [{ mediaType: 'image/png' }] }) as unknown as ArrayBuffer[];
    // A single-part answer comes back as a list of one.
    expect([...new Uint8Array(rendered[0]!).subarray(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
  });

  it('is refused without a token and cannot see another organisation\'s study', async () => {
    const anonymous = clientOf({ url: `${s.url}${DW}`, verbose: false });
    await expect(anonymous.searchForStudies({})).rejects.toMatchObject({ status: 401 });
    const study = uidOfLength(40, 777);
    const admin = await s.login('admin');
    const res = await s.request('POST', `${DW}/studies?bucketId=${s.ids.expertCentreId}`, {
      token: admin, body: multipart(asNewInstance(sample('CT_small.dcm'), 777, { study })),
      headers: { 'content-type': 'multipart/related; type="application/dicom"; boundary=b1' },
    });
    expect(res.status).toBe(200);
    expect(await client.searchForStudies({ queryParams: { StudyInstanceUID: study } })).toEqual([]);
    await expect(client.retrieveStudyMetadata({ studyInstanceUID: study })).rejects.toMatchObject({ status: 404 });
  });
});

function multipart(file: Uint8Array): Uint8Array {
  return Buffer.concat([Buffer.from('--b1\r\nContent-Type: application/dicom\r\n\r\n'), Buffer.from(file), Buffer.from('\r\n--b1--\r\n')]);
}
