import { useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CONSULTATION_CASE_TYPES, type ConsultationCase, type ConsultationCaseType, type ConsultationDetail } from '../../../../contract/consultations';
import { errorText } from '@/lib/errorText';
import { formatBytes, formatDateTime } from '@/lib/format';
import { ConfirmDialog } from '@/ui/ConfirmDialog';
import { detailApi } from './api';
import { KeyHint, Section } from '../../../ui/Section';
import type { Write } from './useConsultation';
import { useUploads, type Upload } from './uploads';

interface Props {
  detail: ConsultationDetail;
  canAdd: boolean;
  canDelete: boolean;
  busy: boolean;
  write: Write;
  reload: () => void;
  /** Bumped by the 'n' command: open the new-case form and focus its name. */
  addSignal: number;
}

type Doomed = { kind: 'case'; item: ConsultationCase } | { kind: 'attachment'; id: number; name: string } | null;

/** Areas §3 cases: name, type, note and their files; files are dropped on a case or picked, each with its progress. */
export function CasesPanel({ detail, canAdd, canDelete, busy, write, reload, addSignal }: Props) {
  const { t } = useTranslation();
  const [adding, setAdding] = useState(false);
  const [doomed, setDoomed] = useState<Doomed>(null);
  const { uploads: all, send, forget } = useUploads(detail.id, reload);
  // A finished upload's row gives way to the attachment once the detail lists it.
  const listed = useMemo(() => new Set(detail.cases.flatMap((c) => c.attachments.map((a) => a.id))), [detail.cases]);
  const uploads = all.filter((u) => !(u.phase === 'done' && u.attachmentId !== null && listed.has(u.attachmentId)));
  // The 'n' command: each new signal opens the form (state adjusted while rendering, not in an effect).
  const [seenSignal, setSeenSignal] = useState(addSignal);
  if (seenSignal !== addSignal) {
    setSeenSignal(addSignal);
    setAdding(true);
  }

  const remove = async () => {
    if (!doomed) return;
    const ok = doomed.kind === 'case'
      ? await write(() => detailApi.deleteCase(detail.id, doomed.item.id), t('consultations.detail.cases.deleted'))
      : await write(() => detailApi.deleteAttachment(detail.id, doomed.id), t('consultations.detail.cases.fileDeleted'));
    if (ok) setDoomed(null);
  };

  return (
    <Section
      title={t('consultations.detail.cases.title')}
      count={detail.cases.length}
      testId="consultation-cases"
      actions={canAdd && !adding && (
        <button type="button" className="btn h-7 text-[13px]" onClick={() => setAdding(true)}>
          {t('consultations.detailCommands.addCase')} <KeyHint keys="N" />
        </button>
      )}
    >
      {adding && <CaseForm busy={busy} onCancel={() => setAdding(false)} onSubmit={async (input) => {
        if (await write(() => detailApi.addCase(detail.id, input), t('consultations.detail.cases.added'))) setAdding(false);
      }} />}
      {detail.cases.length === 0 && !adding && <p className="py-1 text-[13px] text-fg-muted">{t('consultations.detail.cases.none')}</p>}
      <ul className="flex flex-col gap-2">
        {detail.cases.map((item) => (
          <CaseCard
            key={item.id}
            item={item}
            canAdd={canAdd}
            canDelete={canDelete}
            uploads={uploads.filter((u) => u.caseId === item.id)}
            onFiles={(files) => files.forEach((file) => void send(item.id, file))}
            onForget={forget}
            onDeleteCase={() => setDoomed({ kind: 'case', item })}
            onDeleteFile={(id, name) => setDoomed({ kind: 'attachment', id, name })}
          />
        ))}
      </ul>
      <ConfirmDialog
        open={doomed !== null}
        title={doomed?.kind === 'case' ? t('consultations.detail.cases.deleteCaseTitle') : t('consultations.detail.cases.deleteFileTitle')}
        confirmLabel={t('consultations.detail.cases.delete')}
        busy={busy}
        focus="cancel"
        onConfirm={() => void remove()}
        onCancel={() => setDoomed(null)}
      >
        <p className="text-sm">
          {doomed?.kind === 'case'
            ? t('consultations.detail.cases.deleteCaseText', { name: doomed.item.name, count: doomed.item.attachments.length })
            : t('consultations.detail.cases.deleteFileText', { name: doomed?.name ?? '' })}
        </p>
      </ConfirmDialog>
    </Section>
  );
}

function CaseForm({ busy, onSubmit, onCancel }: { busy: boolean; onSubmit: (input: { name: string; type: ConsultationCaseType; note: string }) => Promise<void>; onCancel: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [type, setType] = useState<ConsultationCaseType>('history');
  const [note, setNote] = useState('');
  const [tried, setTried] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  useEffect(() => nameRef.current?.focus(), []);
  const empty = name.trim() === '';
  return (
    <form
      className="mb-2 grid grid-cols-[1fr_10rem] gap-2 rounded-md border border-line bg-sunken p-2"
      data-testid="case-form"
      onSubmit={(e) => {
        e.preventDefault();
        setTried(true);
        if (!empty) void onSubmit({ name: name.trim(), type, note: note.trim() });
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          onCancel();
        }
      }}
    >
      <label className="flex flex-col gap-1 text-[12px] text-fg-muted">
        {t('consultations.detail.cases.name')}
        <input ref={nameRef} className="input" value={name} maxLength={128} aria-invalid={tried && empty} onChange={(e) => setName(e.target.value)} />
        {tried && empty && <span className="text-danger">{t('consultations.detail.cases.nameRequired')}</span>}
      </label>
      <label className="flex flex-col gap-1 text-[12px] text-fg-muted">
        {t('consultations.detail.cases.type')}
        <select className="input" value={type} onChange={(e) => setType(e.target.value as ConsultationCaseType)}>
          {CONSULTATION_CASE_TYPES.map((ct) => <option key={ct} value={ct}>{t(`consultations.caseTypes.${ct}` as 'consultations.caseTypes.history')}</option>)}
        </select>
      </label>
      <label className="col-span-2 flex flex-col gap-1 text-[12px] text-fg-muted">
        {t('consultations.detail.cases.note')}
        <textarea className="input min-h-14 py-1" value={note} maxLength={1000} onChange={(e) => setNote(e.target.value)} />
      </label>
      <div className="col-span-2 flex justify-end gap-2">
        <button type="button" className="btn" onClick={onCancel}>{t('common.cancel')}</button>
        <button type="submit" className="btn btn-primary" disabled={busy}>{t('consultations.detail.cases.add')}</button>
      </div>
    </form>
  );
}

interface CardProps {
  item: ConsultationCase;
  canAdd: boolean;
  canDelete: boolean;
  uploads: Upload[];
  onFiles: (files: File[]) => void;
  onForget: (key: string) => void;
  onDeleteCase: () => void;
  onDeleteFile: (id: number, name: string) => void;
}

function CaseCard({ item, canAdd, canDelete, uploads, onFiles, onForget, onDeleteCase, onDeleteFile }: CardProps) {
  const { t } = useTranslation();
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const accepts = (e: DragEvent) => canAdd && e.dataTransfer.types.includes('Files');
  return (
    <li
      data-testid="consultation-case"
      data-case-id={item.id}
      className={`rounded-md border p-2 ${over ? 'border-accent bg-accent-soft' : 'border-line'}`}
      onDragOver={(e) => {
        if (!accepts(e)) return;
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        if (!accepts(e)) return;
        e.preventDefault();
        setOver(false);
        onFiles([...e.dataTransfer.files]);
      }}
    >
      <div className="flex flex-wrap items-center gap-2 text-[13px]">
        <span className="font-medium">{item.name}</span>
        <span className="rounded border border-line px-1 text-[11px] text-fg-muted">{t(`consultations.caseTypes.${item.type}` as 'consultations.caseTypes.history')}</span>
        <span className="text-[12px] text-fg-subtle">{item.createdBy.name} · {formatDateTime(item.created)}</span>
        <span className="ml-auto flex gap-1.5">
          {canAdd && (
            <>
              <input ref={input} type="file" multiple className="sr-only" tabIndex={-1} aria-hidden="true" data-testid="case-file-input"
                onChange={(e) => {
                  onFiles([...(e.target.files ?? [])]);
                  e.target.value = '';
                }} />
              <button type="button" className="btn h-7 text-[13px]" onClick={() => input.current?.click()}>{t('consultations.detail.cases.addFiles')}</button>
            </>
          )}
          {canDelete && <button type="button" className="btn btn-ghost h-7 text-[13px] text-danger" onClick={onDeleteCase}>{t('consultations.detail.cases.deleteCase')}</button>}
        </span>
      </div>
      {item.note && <p className="mt-1 whitespace-pre-wrap text-[13px] text-fg-muted">{item.note}</p>}
      {(item.attachments.length > 0 || uploads.length > 0) && (
        <table className="mt-1.5 w-full text-[13px]">
          <tbody>
            {item.attachments.map((a) => (
              <tr key={a.id} data-testid="case-attachment" data-status={a.status} className="border-t border-line">
                <td className="max-w-0 truncate py-1 pr-2">
                  {a.status === 'completed' && a.url
                    ? <a href={a.url} target="_blank" rel="noopener noreferrer" className="link" title={a.name}>{a.name}</a>
                    : <span title={a.name}>{a.name}</span>}
                </td>
                <td className="w-20 whitespace-nowrap text-right text-fg-muted">{formatBytes(a.size)}</td>
                <td className="w-28 whitespace-nowrap pl-2">
                  <span className={a.status === 'completed' ? 'text-ok' : 'text-warn'}>{t(`consultations.detail.cases.status.${a.status}`)}</span>
                </td>
                <td className="w-16 text-right">
                  {canDelete && <button type="button" className="btn btn-ghost h-6 px-1.5 text-[12px]" onClick={() => onDeleteFile(a.id, a.name)} aria-label={t('consultations.detail.cases.deleteFileNamed', { name: a.name })}>{t('consultations.detail.cases.delete')}</button>}
                </td>
              </tr>
            ))}
            {uploads.map((u) => <UploadRow key={u.key} upload={u} onForget={() => onForget(u.key)} />)}
          </tbody>
        </table>
      )}
      {canAdd && <p className="mt-1 text-[11px] text-fg-subtle">{t('consultations.detail.cases.dropHint')}</p>}
    </li>
  );
}

function UploadRow({ upload, onForget }: { upload: Upload; onForget: () => void }) {
  const { t } = useTranslation();
  const percent = upload.size > 0 ? Math.min(100, Math.round((upload.sent / upload.size) * 100)) : 100;
  return (
    <tr data-testid="case-upload" data-phase={upload.phase} className="border-t border-line">
      <td className="max-w-0 truncate py-1 pr-2" title={upload.name}>{upload.name}</td>
      <td className="w-20 whitespace-nowrap text-right text-fg-muted">{formatBytes(upload.size)}</td>
      <td className="w-28 pl-2">
        {upload.phase === 'sending' && (
          <progress className="h-1.5 w-full accent-[var(--color-accent)]" max={100} value={percent} aria-label={t('consultations.detail.cases.uploading', { name: upload.name, percent })} />
        )}
        {upload.phase === 'processing' && <span className="text-warn">{t('consultations.detail.cases.status.processing')}</span>}
        {upload.phase === 'done' && <span className="text-ok">{t('consultations.detail.cases.status.completed')}</span>}
        {upload.phase === 'failed' && <span className="text-danger" role="alert">{upload.error === 'tooLarge' ? t('consultations.detail.cases.tooLarge') : errorText(t, upload.error)}</span>}
      </td>
      <td className="w-16 text-right">
        {upload.phase === 'failed' && <button type="button" className="btn btn-ghost h-6 px-1.5 text-[12px]" onClick={onForget}>{t('common.dismiss')}</button>}
      </td>
    </tr>
  );
}
