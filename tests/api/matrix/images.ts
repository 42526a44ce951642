import { fetchLink, form, pdf, png } from '../../support/files';
import { reportIn } from '../../support/reports';
import type { TestServer } from '../../support/server';
import { signedIn, statuses, type MatrixRow, type Role } from './types';
import { api, downloadPermit, examReaders, formWith, once, permitFor, policyPermit, tokenQuery, uploaders } from './uploads';

/**
 * Key images and attachments of a report (core §2, §5, §7 "Reports"), on a draft of the hospital written by rad1.
 * Key images are report content: adding or removing one is the report machine's "may save now", which on rad1's
 * draft is rad1's alone (as POST reports/:id/save in reports.ts); the list is for every reader of the report.
 * Attachments follow their own actions, held by admin and tech. The expert is not in the hospital (404).
 * An anonymous caller brings a permit of the account that may (see uploads.ts); read links need nothing else.
 */
const draft = (s: TestServer) => reportIn(s, 'partial');

async function withImage(s: TestServer) {
  const report = await draft(s);
  const image = await api(s, 'rad1', 'POST', `reports/${report.id}/images`, form(png(8, 8), 'key.png', 'image/png'));
  return { id: report.id, imageId: image.id as number };
}

async function withAttachment(s: TestServer) {
  const report = await draft(s);
  const attachment = await api(s, 'tech', 'POST', `reports/${report.id}/upload-attachments`, form(pdf(), '申请单.pdf', 'application/pdf'));
  return { id: report.id, attachmentId: attachment.id as number };
}

const imageOnce = once(withImage);
const attachmentOnce = once(withAttachment);

/** The read link (GET files?token) the image list gives for a key image. */
const readLink = once(async (s: TestServer) => {
  const { id } = await imageOnce(s);
  const [image] = await api(s, 'rad1', 'GET', `reports/${id}/images`);
  const url = image.url as string;
  if (!url.startsWith('/api/v1/files?token=')) throw new Error(`matrix setup: not a local read link: ${url}`);
  if ((await fetchLink(s, url)).status !== 200) throw new Error('matrix setup: the read link does not open');
  return url.replace(/^\/api\/v1/, '');
});

/** Only rad1, the draft's writer, may edit it; the expert is elsewhere. */
const writer = (ok: number) => signedIn(403, { rad1: ok, expert: 404 });

export const rows: MatrixRow[] = [
  {
    method: 'GET', route: '/reports/:id/images',
    setup: async (s, role: Role) => ({ ...(await imageOnce(s)), permit: await permitFor(role, () => downloadPermit(s, 'rad1')) }),
    path: ({ fixture }) => `/reports/${fixture.id}/images${tokenQuery(fixture.permit)}`, expect: { ...examReaders(200), anonymous: 200 },
  },
  {
    method: 'POST', route: '/reports/:id/images',
    setup: async (s, role) => ({ ...(await draft(s)), permit: await permitFor(role, () => policyPermit(s, 'rad1', 'images')) }),
    path: ({ fixture }) => `/reports/${fixture.id}/images`, body: ({ fixture }) => formWith(fixture.permit, png(8, 8), 'key.png', 'image/png'),
    expect: { ...writer(201), anonymous: 201 },
  },
  {
    method: 'DELETE', route: '/reports/:id/images/:imageId', setup: withImage,
    path: ({ fixture }) => `/reports/${fixture.id}/images/${fixture.imageId}`, expect: writer(204),
  },
  { method: 'GET', route: '/files', setup: readLink, path: ({ fixture }) => fixture, expect: statuses(200) },
  // Attachments.
  { method: 'GET', route: '/reports/:id/attachments', setup: attachmentOnce, path: ({ fixture }) => `/reports/${fixture.id}/attachments`, expect: examReaders(200) },
  {
    method: 'POST', route: '/reports/:id/upload-attachments',
    setup: async (s, role) => ({ ...(await draft(s)), permit: await permitFor(role, () => policyPermit(s, 'tech', 'attachments')) }),
    path: ({ fixture }) => `/reports/${fixture.id}/upload-attachments`, body: ({ fixture }) => formWith(fixture.permit, pdf(), '申请单.pdf', 'application/pdf'),
    expect: { ...uploaders(201), anonymous: 201 },
  },
  {
    method: 'GET', route: '/reports/:id/attachments/:attachmentId/presign-url', setup: attachmentOnce,
    path: ({ fixture }) => `/reports/${fixture.id}/attachments/${fixture.attachmentId}/presign-url`, expect: uploaders(200),
  },
  {
    method: 'DELETE', route: '/reports/:id/attachments/:attachmentId', setup: withAttachment,
    path: ({ fixture }) => `/reports/${fixture.id}/attachments/${fixture.attachmentId}`, expect: uploaders(204),
  },
];
