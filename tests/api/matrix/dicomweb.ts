import * as dicomParserModule from 'dicom-parser';
import { asNewInstance, sample, uidOfLength } from '../../support/dicom';
import { stow } from '../../support/dicomweb';
import type { TestServer } from '../../support/server';
import { signedIn, type MatrixRow } from './types';
import { examReaders, once } from './uploads';

/**
 * DICOMweb (PS3.18), on a study of the hospital stored by STOW-RS as tech. Queries answer every signed-in account
 * (scoped to what it may read: the registrar and the expert get an empty list); retrieval is for the hospital's exam
 * readers (admin, the radiologists, chief, tech), 403 for the registrar (a member without exam reading), 404 for the
 * expert (not in the hospital). STOW-RS needs exam_upload (admin, tech): they pass the checks and reach the body,
 * which here is not multipart (400); the others 403, the expert 404.
 */
const dicomParser = ((dicomParserModule as unknown as { default?: typeof dicomParserModule }).default ?? dicomParserModule);

const study = once(async (s: TestServer) => {
  const studyUid = uidOfLength(40, 515151);
  const file = asNewInstance(sample('CT_small.dcm'), 515151, { study: studyUid });
  // A login of its own: the shared token cache (tokenOf) would hold tech's token from before the foundation rows'
  // logout, which ends every token of tech, and the upload rows after it would meet a dead one.
  const res = await stow(s, await s.login('tech'), [file]);
  if (res.status !== 200) throw new Error(`matrix setup: STOW → ${res.status} ${JSON.stringify(res.body)}`);
  const ds = dicomParser.parseDicom(file);
  return { study: studyUid, series: ds.string('x0020000e')!, instance: ds.string('x00080018')! };
});
type Fixture = Awaited<ReturnType<typeof study>>;
const base = (f: Fixture) => `/dicomweb/studies/${f.study}`;
const inst = (f: Fixture) => `${base(f)}/series/${f.series}/instances/${f.instance}`;
const get = (route: string, path: (f: Fixture) => string, expect: MatrixRow['expect']): MatrixRow =>
  ({ method: 'GET', route: `/dicomweb${route}`, setup: study, path: ({ fixture }) => path(fixture as Fixture), expect });

const uploadRights = signedIn(403, { admin: 400, tech: 400, expert: 404 });

export const rows: MatrixRow[] = [
  get('/studies', (f) => `/dicomweb/studies?StudyInstanceUID=${f.study}`, signedIn(200)),
  get('/series', (f) => `/dicomweb/series?StudyInstanceUID=${f.study}`, signedIn(200)),
  get('/instances', (f) => `/dicomweb/instances?StudyInstanceUID=${f.study}`, signedIn(200)),
  get('/studies/:study/series', (f) => `${base(f)}/series`, signedIn(200)),
  get('/studies/:study/instances', (f) => `${base(f)}/instances`, signedIn(200)),
  get('/studies/:study/series/:series/instances', (f) => `${base(f)}/series/${f.series}/instances`, signedIn(200)),
  get('/studies/:study', base, examReaders(200)),
  get('/studies/:study/series/:series', (f) => `${base(f)}/series/${f.series}`, examReaders(200)),
  get('/studies/:study/series/:series/instances/:instance', inst, examReaders(200)),
  get('/studies/:study/metadata', (f) => `${base(f)}/metadata`, examReaders(200)),
  get('/studies/:study/series/:series/metadata', (f) => `${base(f)}/series/${f.series}/metadata`, examReaders(200)),
  get('/studies/:study/series/:series/instances/:instance/metadata', (f) => `${inst(f)}/metadata`, examReaders(200)),
  get('/studies/:study/series/:series/instances/:instance/frames/:frames', (f) => `${inst(f)}/frames/1`, examReaders(200)),
  get('/studies/:study/series/:series/instances/:instance/rendered', (f) => `${inst(f)}/rendered`, examReaders(200)),
  get('/studies/:study/series/:series/instances/:instance/frames/:frames/rendered', (f) => `${inst(f)}/frames/1/rendered`, examReaders(200)),
  {
    method: 'POST', route: '/dicomweb/studies', setup: study,
    path: ({ s }) => `/dicomweb/studies?bucketId=${s.ids.hospitalId}`, body: () => ({ not: 'multipart' }), expect: uploadRights,
  },
  {
    method: 'POST', route: '/dicomweb/studies/:study', setup: study,
    path: ({ s, fixture }) => `${base(fixture as Fixture)}?bucketId=${s.ids.hospitalId}`, body: () => ({ not: 'multipart' }), expect: uploadRights,
  },
];
