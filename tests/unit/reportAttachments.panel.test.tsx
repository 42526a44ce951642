// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import en from '../../locales/en.json';
import type { ReportAttachment } from '../../contract/images';
import type { UploadPolicy } from '../../contract/uploads';
import { AttachmentsPanel } from '@/features/report/attachments/AttachmentsPanel';
import type { AttachmentRights } from '@/features/report/attachments/rules';
import { standInForModalDialogs } from './support/dialogs';

const calls = vi.hoisted(() => ({ http: [] as { method: string; path: string; body?: unknown }[], forms: [] as { path: string; names: string[]; token: unknown }[] }));
const stored = vi.hoisted(() => ({ items: [] as ReportAttachment[] }));

const POLICY: UploadPolicy = {
  kind: 'attachments', maxBytes: 1000, types: ['application/pdf', 'image/png'], maxCount: null,
  token: 'policy-token', expires: Math.floor(Date.now() / 1000) + 600, uploadPath: 'reports/{id}/upload-attachments',
};

vi.mock('@/lib/http', async (original) => ({
  ...(await original<object>()),
  http: {
    get: (path: string) => {
      calls.http.push({ method: 'GET', path });
      if (path === 'policies/attachments') return Promise.resolve(POLICY);
      if (path === 'reports/7/attachments') return Promise.resolve([...stored.items]);
      return Promise.reject(new Error(`unexpected GET ${path}`));
    },
    post: (path: string, body: unknown) => {
      calls.http.push({ method: 'POST', path, body });
      return Promise.resolve({ code: 'c0de-c0de-c0de-c0de', kind: 'attachment', expires: Math.floor(Date.now() / 1000) + 24 * 3600, path: '/attachments/upload?code=c0de-c0de-c0de-c0de' });
    },
    delete: (path: string) => {
      calls.http.push({ method: 'DELETE', path });
      return Promise.resolve(undefined);
    },
  },
}));

vi.mock('@/lib/http/form', () => ({
  postForm: (path: string, form: FormData) => {
    const file = form.get('file') as File;
    calls.forms.push({ path, names: [...form.keys()], token: form.get('token') });
    const made: ReportAttachment = { id: 100 + calls.forms.length, reportId: 7, name: file.name, contentType: file.type, size: file.size, created: '2026-11-20T08:00:00.000Z', createdBy: 6 };
    stored.items.push(made);
    return Promise.resolve(made);
  },
}));

beforeAll(() => {
  standInForModalDialogs();
});
beforeEach(() => {
  calls.http.length = 0;
  calls.forms.length = 0;
  stored.items = [
    { id: 1, reportId: 7, name: 'referral.pdf', contentType: 'application/pdf', size: 2048, created: '2026-11-19T09:30:00.000Z', createdBy: 6 },
    { id: 2, reportId: 7, name: 'outside-scan.png', contentType: 'image/png', size: 512, created: '2026-11-19T10:00:00.000Z', createdBy: null },
  ];
});
afterEach(cleanup);

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false } });

const ALL: AttachmentRights = { list: true, open: true, upload: true, remove: true, createCode: true };
const LIST_ONLY: AttachmentRights = { list: true, open: false, upload: false, remove: false, createCode: false };

async function show(rights: AttachmentRights) {
  render(
    <I18nextProvider i18n={i18n}>
      <AttachmentsPanel reportId={7} bucketId={1} rights={rights} />
    </I18nextProvider>,
  );
  await screen.findByText('referral.pdf');
  return screen.getByTestId('attachments-panel');
}

const settle = () => act(async () => {
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setTimeout(resolve, 0));
});

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const pdf = (name: string, size: number) => new File([new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, ...new Array<number>(size - 5).fill(0x20)])], name, { type: 'application/pdf' });
const png = (name: string, size: number) => new File([new Uint8Array([...PNG, ...new Array<number>(size - PNG.length).fill(0)])], name, { type: 'image/png' });

describe('the attachments panel', () => {
  it('lists name, type, size and time, and says which file came through an upload code', async () => {
    const panel = await show(ALL);
    const rows = within(panel).getAllByRole('listitem').filter((li) => li.hasAttribute('data-attachment'));
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringMatching(/^referral\.pdfPDF·2\.0 kB·2026-11-19 \d\d:30Delete$/),
      expect.stringMatching(/^outside-scan\.pngPNG·512 B·2026-11-19 \d\d:00via upload codeDelete$/),
    ]);
    expect(within(panel).getByTestId('attachment-count').textContent).toBe('2');
  });

  it('gives an account with every attachment action its controls', async () => {
    const panel = await show(ALL);
    expect(within(panel).getByRole('button', { name: 'Add files…' })).toBeTruthy();
    expect(within(panel).getByRole('button', { name: 'Delete referral.pdf' })).toBeTruthy();
    expect(within(panel).getByRole('button', { name: 'referral.pdf' })).toBeTruthy();
    expect(within(panel).getByRole('button', { name: 'Create code' })).toBeTruthy();
    await settle();
    expect(within(panel).getByTestId('attachment-limits').textContent).toBe('PDF, PNG, up to 1000 B each');
  });

  it('shows an account without attachment actions the list alone, names as plain text', async () => {
    const panel = await show(LIST_ONLY);
    expect(within(panel).queryByRole('button', { name: /Add files/ })).toBeNull();
    expect(within(panel).queryByRole('button', { name: /^Delete/ })).toBeNull();
    expect(within(panel).queryByRole('button', { name: 'Create code' })).toBeNull();
    expect(within(panel).queryByRole('button', { name: 'referral.pdf' })).toBeNull();
    expect(within(panel).queryByTestId('attachment-input')).toBeNull();
    // Nor does it ask for an upload permit it could not use.
    await settle();
    expect(calls.http.map((c) => c.path)).toEqual(['reports/7/attachments']);
  });

  it('says so when the report has no attachments', async () => {
    stored.items = [];
    render(<I18nextProvider i18n={i18n}><AttachmentsPanel reportId={7} bucketId={1} rights={LIST_ONLY} /></I18nextProvider>);
    expect(await screen.findByText('No attachments yet')).toBeTruthy();
  });

  it('refuses too large and wrong-typed files by the policy with the catalogue\'s words, and sends the good one', async () => {
    const panel = await show(ALL);
    await settle();
    const input = within(panel).getByTestId('attachment-input') as HTMLInputElement;
    const files = [png('big.png', 1001), new File(['just text'], 'notes.txt', { type: 'text/plain' }), pdf('letter.pdf', 600)];
    fireEvent.change(input, { target: { files } });
    await settle();

    expect(calls.forms).toEqual([{ path: 'reports/7/upload-attachments', names: ['token', 'file'], token: 'policy-token' }]);
    const uploads = within(panel).getByTestId('attachment-uploads');
    const big = uploads.querySelector('[data-upload="big.png"]')!;
    expect(big.getAttribute('data-state')).toBe('failed');
    expect(big.textContent).toContain('The file is larger than allowed');
    expect(uploads.querySelector('[data-upload="notes.txt"]')!.textContent).toContain('This type of file is not accepted here');
    // Refused files cannot be sent again as they are; they can be cleared.
    expect(within(big as HTMLElement).queryByRole('button', { name: 'Try again' })).toBeNull();
    // The stored file left the uploads and the list was asked again.
    expect(uploads.querySelector('[data-upload="letter.pdf"]')).toBeNull();
    expect(await within(panel).findByText('letter.pdf')).toBeTruthy();
    expect(calls.http.filter((c) => c.path === 'reports/7/attachments')).toHaveLength(2);

    fireEvent.click(within(big as HTMLElement).getByRole('button', { name: 'Remove big.png from this list' }));
    expect(uploads.querySelector('[data-upload="big.png"]')).toBeNull();
  });

  it('takes files dropped onto the panel, and only from an account that may upload', async () => {
    const panel = await show(ALL);
    await settle();
    const dataTransfer = { types: ['Files'], files: [png('dropped.png', 64)], dropEffect: 'none' };
    fireEvent.dragOver(panel, { dataTransfer });
    expect(panel.getAttribute('data-dragging')).toBe('true');
    expect(panel.textContent).toContain('Release to add them to this report');
    fireEvent.drop(panel, { dataTransfer });
    await settle();
    expect(panel.hasAttribute('data-dragging')).toBe(false);
    expect(calls.forms).toHaveLength(1);
    expect(await within(panel).findByText('dropped.png')).toBeTruthy();
    cleanup();

    const readOnly = await show(LIST_ONLY);
    fireEvent.dragOver(readOnly, { dataTransfer });
    expect(readOnly.hasAttribute('data-dragging')).toBe(false);
    fireEvent.drop(readOnly, { dataTransfer });
    await settle();
    expect(calls.forms).toHaveLength(1);
  });

  it('deletes after asking, with the focus on Cancel', async () => {
    const panel = await show(ALL);
    fireEvent.click(within(panel).getByRole('button', { name: 'Delete referral.pdf' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this attachment?' });
    expect(dialog.textContent).toContain('referral.pdf will be removed from the report for everyone.');
    await act(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    expect(document.activeElement?.textContent).toBe('Cancel');
    expect(calls.http.some((c) => c.method === 'DELETE')).toBe(false);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await settle();
    expect(calls.http.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['reports/7/attachments/1']);
    expect(within(panel).queryByText('referral.pdf')).toBeNull();
    expect(within(panel).getByText('outside-scan.png')).toBeTruthy();
  });

  it('checks the hours of an upload code before asking, then shows the code, its full link and expiry', async () => {
    const panel = await show(ALL);
    const section = within(panel).getByTestId('upload-code');
    const hours = section.querySelector('input[name=ttlHours]') as HTMLInputElement;
    expect(hours.value).toBe('72');
    for (const bad of ['0', '721', '2.5']) {
      fireEvent.change(hours, { target: { value: bad } });
      fireEvent.click(within(section).getByRole('button', { name: 'Create code' }));
      await settle();
      expect(section.textContent).toContain('Enter a whole number of hours from 1 to 720');
    }
    expect(calls.http.some((c) => c.path === 'upload-codes')).toBe(false);

    fireEvent.change(hours, { target: { value: '24' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Create code' }));
    await settle();
    expect(calls.http.find((c) => c.path === 'upload-codes')?.body).toEqual({ kind: 'attachment', bucketId: 1, reportId: 7, ttlHours: 24 });
    expect(within(section).getByTestId('upload-code-value').textContent).toBe('c0de-c0de-c0de-c0de');
    expect((within(section).getByTestId('upload-code-url') as HTMLInputElement).value).toBe(`${window.location.origin}/attachments/upload?code=c0de-c0de-c0de-c0de`);
    expect(within(section).getByTestId('upload-code-expiry').textContent).toMatch(/^Valid until \d{4}-\d\d-\d\d \d\d:\d\d$/);
    expect(within(section).getByRole('button', { name: 'Copy the upload link' })).toBe(document.activeElement);
    expect(section.textContent).not.toContain('Enter a whole number');
  });
});
