import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { codeText } from './codeText';
import { useSearch } from 'wouter';
import { POLICY_LIMITS } from '../../../contract/files';
import type { ReportAttachment } from '../../../contract/images';
import { PublicFrame } from '@/ui/PublicFrame';
import { isHttpError } from '@/lib/http';
import { CodeGate, CodeTarget } from './CodeGate';
import { formatBytes } from '@/lib/format';
import { ProgressBar } from './ProgressBar';
import { postForm } from '@/lib/http/form';
import { useUploadCode } from './useUploadCode';

interface Row {
  id: number;
  file: File;
  sent: number;
  status: 'sending' | 'done' | 'failed';
  error: string | null;
}

const LIMITS = POLICY_LIMITS.attachments;

/** /attachments/upload?code: documents (PDF, pictures) onto one report by an attachment code, without an account. */
export default function AttachmentUploadPage() {
  const { t } = useTranslation();
  const code = new URLSearchParams(useSearch()).get('code');
  const { info, error } = useUploadCode(code);
  const [rows, setRows] = useState<Row[]>([]);
  const input = useRef<HTMLInputElement>(null);
  const nextId = useRef(1);

  const patch = (id: number, p: Partial<Row>) => setRows((list) => list.map((r) => (r.id === id ? { ...r, ...p } : r)));

  const send = async (row: Row) => {
    patch(row.id, { status: 'sending', sent: 0, error: null });
    if (row.file.size > LIMITS.maxBytes) {
      patch(row.id, { status: 'failed', error: 'UploadTooLarge' });
      return;
    }
    const form = new FormData();
    form.append('file', row.file, row.file.name);
    try {
      await postForm<ReportAttachment>(`upload-codes/${encodeURIComponent(code!)}/attachments`, form, (sent) => patch(row.id, { sent }));
      patch(row.id, { status: 'done', sent: row.file.size });
    } catch (err) {
      patch(row.id, { status: 'failed', error: isHttpError(err) ? err.code : 'UnknownError' });
    }
  };

  const add = (files: FileList | null) => {
    const added = Array.from(files ?? [], (file): Row => ({ id: nextId.current++, file, sent: 0, status: 'sending', error: null }));
    setRows((list) => [...list, ...added]);
    for (const row of added) void send(row);
  };

  return (
    <PublicFrame title={t('upload.attachments.title')}>
      <CodeGate code={code} info={info} error={error} kind="attachment">
        {(info) => (
          <div className="flex flex-col gap-4">
            <CodeTarget info={info} className="text-sm text-fg-muted" />
            <div
              onDragOver={(event) => event.preventDefault()}
              onDrop={(event) => {
                event.preventDefault();
                add(event.dataTransfer.files);
              }}
              className="flex flex-col items-center gap-3 rounded-lg border-2 border-dashed border-line-strong bg-surface px-6 py-8 text-center"
            >
              <p className="text-sm">{t('upload.attachments.drop')}</p>
              <p className="text-xs text-fg-subtle">{t('upload.attachments.limits', { size: formatBytes(LIMITS.maxBytes) })}</p>
              <button type="button" className="btn" onClick={() => input.current?.click()}>{t('upload.choose.files')}</button>
              <input ref={input} type="file" multiple hidden accept={LIMITS.types.join(',')} onChange={(event) => { add(event.target.files); event.target.value = ''; }} />
            </div>
            {rows.length > 0 && (
              <ul className="divide-y divide-line rounded-lg border border-line bg-surface text-sm">
                {rows.map((row) => (
                  <li key={row.id} className="grid grid-cols-[minmax(0,1fr)_5rem_10rem_5rem] items-center gap-3 px-4 py-1.5">
                    <span className="truncate">{row.file.name}</span>
                    <span className="text-right text-xs tabular-nums text-fg-subtle">{formatBytes(row.file.size)}</span>
                    {row.status === 'failed' ? <span className="text-xs text-danger">{codeText(t, row.error)}</span>
                      : row.status === 'done' ? <span className="text-xs text-ok">{t('upload.status.stored')}</span>
                        : <ProgressBar value={row.file.size ? row.sent / row.file.size : 0} label={row.file.name} />}
                    <span className="text-right text-xs">{row.status === 'failed' && <button type="button" className="link" onClick={() => void send(row)}>{t('upload.progress.retry')}</button>}</span>
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
      </CodeGate>
    </PublicFrame>
  );
}
