import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CT_SERIES, asNewInstance, sample, uidOfLength } from '../support/dicom';
import { DW, stow, value } from '../support/dicomweb';
import { startServer, type TestServer } from '../support/server';

/**
 * QIDO-RS (PS3.18 10.6) over the exams and their instances: each level, each standard key, limit/offset,
 * includefield, bad keys and values, and the caller's organisations. The studies come in by STOW-RS as tech (the
 * hospital); one study is stored by admin into the expert centre, which the hospital's readers never see.
 */
let s: TestServer;
let rad1: string;
const CT_STUDY = '1.3.6.1.4.1.5962.1.1.0.0.0.1196530851.28319.0.1';
const CT_SERIES_UID = '1.3.6.1.4.1.5962.1.1.0.0.0.1196530851.28319.0.2';
const WANG_STUDY = '1.3.6.1.4.1.5962.1.2.0.1175775771.5711.0';
const RLE_STUDY = '1.2.826.0.1.3680043.8.498.12406831542731051035295345080039845114';
const EXPERT_STUDY = uidOfLength(40, 424242);

type Ds = Record<string, { vr: string; Value?: unknown[] }>;
const get = async (path: string, token = rad1) => s.request('GET', `${DW}/${path}`, { token });
const uids = (body: Ds[], tag = '0020000D') => body.map((d) => value(d, tag));

beforeAll(async () => {
  s = await startServer({ exams: 5 });
  const tech = await s.login('tech');
  const stored = await stow(s, tech, [...CT_SERIES.map(sample), sample('chrX1.dcm'), sample('SC_rgb_rle_2frame.dcm'), sample('MR_small.dcm')]);
  expect(stored.status).toBe(200);
  const admin = await s.login('admin');
  const expert = await stow(s, admin, [asNewInstance(sample('CT_small.dcm'), 7, { study: EXPERT_STUDY })], `studies?bucketId=${s.ids.expertCentreId}`);
  expect(expert.status).toBe(200);
  rad1 = await s.login('rad1');
});
afterAll(async () => { await s.close(); });

describe('QIDO-RS studies', () => {
  it('answers application/dicom+json with the standard study attributes and counts', async () => {
    const res = await get(`studies?StudyInstanceUID=${CT_STUDY}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/dicom\+json/);
    expect(res.body).toHaveLength(1);
    const [d] = res.body as Ds[];
    expect(d!['0020000D']).toEqual({ vr: 'UI', Value: [CT_STUDY] });
    expect(d!['00100010']).toEqual({ vr: 'PN', Value: [{ Alphabetic: 'Doe^Archibald' }] });
    expect(value(d!, '00100020')).toBe('77654033');
    expect(value(d!, '00080020')).toBe('19950903');
    expect(value(d!, '00080050')).toBe('2');
    expect(d!['00080061']).toEqual({ vr: 'CS', Value: ['CT'] });
    expect(value(d!, '00201206')).toBe(1);
    expect(value(d!, '00201208')).toBe(4);
    expect(value(d!, '00081190')).toBe(`${s.url}${DW}/studies/${CT_STUDY}`);
    // Optional attributes only with includefield.
    expect(d!['00101010']).toBeUndefined();
  });

  it('matches each standard key exactly, with wild cards and ranges where the standard has them', async () => {
    const cases: [string, string[]][] = [
      ['PatientID=77654033', [CT_STUDY]],
      ['PatientID=7765*', [CT_STUDY]],
      ['PatientID=7765', []],
      ['PatientName=Doe^Archibald', [CT_STUDY]],
      ['PatientName=doe*', [CT_STUDY]],
      ['PatientName=D?e*', [CT_STUDY]],
      ['PatientName=王小東', [WANG_STUDY]],
      ['PatientName=Wang^Xiao*', [WANG_STUDY]],
      ['PatientName=Doe', []],
      ['StudyDate=19950903', [CT_STUDY]],
      ['StudyDate=19950101-19951231', [CT_STUDY]],
      ['StudyDate=-19960101', [CT_STUDY]],
      ['StudyDate=19950904-', null as unknown as string[]],
      ['AccessionNumber=2', [CT_STUDY]],
      // (The demo's exams have modalities but no stored instances: narrowed by patient.)
      ['ModalitiesInStudy=CT&PatientID=77654033', [CT_STUDY]],
      ['ModalitiesInStudy=MR\\CT&PatientID=77654033', [CT_STUDY]],
      ['ModalitiesInStudy=OT&PatientID=X1EXAMPLE', [WANG_STUDY]],
      ['ModalitiesInStudy=CT&PatientID=X1EXAMPLE', []],
      [`StudyInstanceUID=${CT_STUDY}\\${RLE_STUDY}`, [CT_STUDY, RLE_STUDY]],
      ['StudyDescription=CT, HEAD*', [CT_STUDY]],
      ['StudyDescription=CT', []],
      [`SeriesInstanceUID=${CT_SERIES_UID}`, null as unknown as string[]],
    ];
    for (const [query, expected] of cases) {
      const res = await get(`studies?${query.split('&').map((p) => { const [k, v] = p.split('='); return `${k}=${encodeURIComponent(v!)}`; }).join('&')}`);
      expect(res.status, query).toBe(200);
      const found = uids(res.body as Ds[]);
      if (expected === null) {
        // A date from the day after: the CT study (1995) is not among them; a series key is not a study key (ignored).
        if (query.startsWith('StudyDate')) expect(found, query).not.toContain(CT_STUDY);
        else expect(res.headers.get('warning'), query).toMatch(/SeriesInstanceUID/);
      } else expect([...found].sort(), query).toEqual([...expected].sort());
    }
  });

  it('pages with limit and offset (newest exam first) and says when more remain', async () => {
    const all = await get('studies?ModalitiesInStudy=CT\\OT\\MR&limit=100');
    const every = uids(all.body as Ds[]);
    expect(every).toEqual(expect.arrayContaining([CT_STUDY, WANG_STUDY, RLE_STUDY]));
    const first = await get('studies?ModalitiesInStudy=CT\\OT\\MR&limit=2');
    expect(uids(first.body as Ds[])).toEqual(every.slice(0, 2));
    expect(first.headers.get('warning')).toMatch(/additional results/);
    const next = await get('studies?ModalitiesInStudy=CT\\OT\\MR&limit=2&offset=2');
    expect(uids(next.body as Ds[])).toEqual(every.slice(2, 4));
    expect(all.headers.get('warning')).toBeNull();
  });

  it('adds fields with includefield, and every known one with all', async () => {
    const one = await get(`studies?StudyInstanceUID=${CT_STUDY}&includefield=PatientAge&includefield=00180015`);
    expect(Object.keys(one.body[0])).toEqual(expect.arrayContaining(['00101010', '00180015']));
    expect(one.body[0]['00101030']).toBeUndefined();
    const all = await get(`studies?StudyInstanceUID=${CT_STUDY}&includefield=all`);
    expect(Object.keys(all.body[0])).toEqual(expect.arrayContaining(['00101010', '00101030', '00180015']));
  });

  it('refuses bad keys and values with 400 ParamsError naming the key', async () => {
    for (const [query, field] of [
      ['Foo=1', 'Foo'], ['12345678=1', '12345678'], ['StudyDate=2020', 'StudyDate'], ['StudyDate=20200230', 'StudyDate'],
      ['StudyDate=20200301-20200101', 'StudyDate'], ['StudyInstanceUID=abc', 'StudyInstanceUID'], ['limit=x', 'limit'],
      ['limit=0', 'limit'], ['limit=100001', 'limit'], ['offset=-1', 'offset'], ['includefield=Nope', 'Nope'],
      ['fuzzymatching=true', 'fuzzymatching'], ['ModalitiesInStudy=c t', 'ModalitiesInStudy'], ['PatientID=1&PatientID=2', 'PatientID'],
    ] as const) {
      const res = await get(`studies?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.code, query).toBe('ParamsError');
      expect(res.body.details.fields, query).toEqual([field]);
    }
  });

  it('accepts a tag for a keyword and fuzzymatching=false', async () => {
    const res = await get(`studies?00100020=77654033&fuzzymatching=false`);
    expect(uids(res.body as Ds[])).toEqual([CT_STUDY]);
  });

  it('shows only the caller\'s organisations: the expert centre\'s study is not the hospital\'s', async () => {
    expect(uids((await get(`studies?StudyInstanceUID=${EXPERT_STUDY}`)).body as Ds[])).toEqual([]);
    expect(uids((await get(`series?StudyInstanceUID=${EXPERT_STUDY}`)).body as Ds[])).toEqual([]);
    expect((await get(`studies/${EXPERT_STUDY}/series`)).body).toEqual([]);
    const expert = await s.login('expert');
    expect(uids((await get(`studies?StudyInstanceUID=${EXPERT_STUDY}`, expert)).body as Ds[])).toEqual([EXPERT_STUDY]);
    expect(uids((await get(`studies?StudyInstanceUID=${CT_STUDY}`, expert)).body as Ds[])).toEqual([]);
  });

  it('answers nothing to an account without exam reading, 401 without a token, 406 for a type it cannot give', async () => {
    const registrar = await s.login('registrar');
    expect((await get(`studies?StudyInstanceUID=${CT_STUDY}`, registrar)).body).toEqual([]);
    expect((await s.request('GET', `${DW}/studies`)).status).toBe(401);
    const xml = await s.request('GET', `${DW}/studies`, { token: rad1, headers: { accept: 'multipart/related; type="application/dicom+xml"' } });
    expect(xml.status).toBe(406);
    expect(xml.body.code).toBe('NotAcceptable');
  });
});

describe('QIDO-RS series and instances', () => {
  it('lists a study\'s series with their attributes and instance counts', async () => {
    const res = await get(`studies/${CT_STUDY}/series`);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    const [d] = res.body as Ds[];
    expect(value(d!, '0020000E')).toBe(CT_SERIES_UID);
    expect(value(d!, '00080060')).toBe('CT');
    expect(value(d!, '00200011')).toBe(2);
    expect(value(d!, '00201209')).toBe(4);
    expect(value(d!, '00081190')).toBe(`${s.url}${DW}/studies/${CT_STUDY}/series/${CT_SERIES_UID}`);
  });

  it('matches series keys (Modality, SeriesNumber, SeriesInstanceUID) and study keys at the series level', async () => {
    expect(uids((await get('series?Modality=CT&PatientID=77654033')).body as Ds[], '0020000E')).toEqual([CT_SERIES_UID]);
    expect(uids((await get(`studies/${CT_STUDY}/series?SeriesNumber=2`)).body as Ds[], '0020000E')).toEqual([CT_SERIES_UID]);
    expect((await get(`studies/${CT_STUDY}/series?SeriesNumber=3`)).body).toEqual([]);
    expect((await get(`studies/${CT_STUDY}/series?Modality=MR`)).body).toEqual([]);
    const bySeries = await get(`series?SeriesInstanceUID=${CT_SERIES_UID}`);
    expect(uids(bySeries.body as Ds[])).toEqual([CT_STUDY]);
    expect((await get('series?SeriesNumber=two')).status).toBe(400);
  });

  it('lists instances in series order, with limit/offset, and matches SOPInstanceUID and InstanceNumber', async () => {
    const res = await get(`studies/${CT_STUDY}/series/${CT_SERIES_UID}/instances`);
    expect(res.status).toBe(200);
    const numbers = (res.body as Ds[]).map((d) => value(d, '00200013'));
    expect(numbers).toEqual([18, 180, 181, 182]);
    const d = (res.body as Ds[])[0]!;
    expect(value(d, '00080016')).toBe('1.2.840.10008.5.1.4.1.1.2');
    expect(value(d, '00080018')).toBe('1.3.6.1.4.1.5962.1.1.0.0.0.1196530851.28319.0.93');
    expect(value(d, '00280010')).toBe(16);
    const page = await get(`studies/${CT_STUDY}/instances?limit=2&offset=1`);
    expect((page.body as Ds[]).map((x) => value(x, '00200013'))).toEqual([180, 181]);
    const one = await get('instances?SOPInstanceUID=1.3.6.1.4.1.5962.1.1.0.0.0.1196530851.28319.0.95');
    expect((one.body as Ds[]).map((x) => value(x, '00200013'))).toEqual([181]);
    expect(value((one.body as Ds[])[0]!, '0020000D')).toBe(CT_STUDY);
    expect(((await get(`studies/${CT_STUDY}/instances?InstanceNumber=182`)).body as Ds[]).map((x) => value(x, '00200013'))).toEqual([182]);
    expect((await get('instances?SOPInstanceUID=1.2.3.x')).status).toBe(400);
  });

  it('answers the multi-frame instance\'s Number of Frames', async () => {
    const res = await get(`studies/${RLE_STUDY}/instances`);
    expect(value((res.body as Ds[])[0]!, '00280008')).toBe(2);
  });
});
