import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ExamListItem } from '../../../../contract/exams';
import { CANCEL_REASON_MAX, type RegistryRow } from '../../../../contract/registry';
import { formatDateTime } from '@/lib/format';
import { useLoad } from '@/lib/useLoad';
import { ConfirmDialog } from '@/ui/ConfirmDialog';
import { Dialog } from '@/ui/Dialog';
import { Spinner } from '@/ui/Spinner';
import { registryApi } from '../api';

/** Cancel needs a reason (areas §4): the field has the focus, Enter confirms once it holds one. */
export function CancelDialog({ row, busy, onConfirm, onCancel }: {
  row: RegistryRow | null;
  busy: boolean;
  onConfirm: (row: RegistryRow, reason: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={row !== null} title={t('registry.cancel.title')} onCancel={busy ? undefined : onCancel} width={420}>
      {/* Keyed by the line: each cancel starts with an empty reason. */}
      {row && <CancelForm key={row.examId} row={row} busy={busy} onConfirm={onConfirm} onCancel={onCancel} />}
    </Dialog>
  );
}

function CancelForm({ row, busy, onConfirm, onCancel }: {
  row: RegistryRow;
  busy: boolean;
  onConfirm: (row: RegistryRow, reason: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    requestAnimationFrame(() => input.current?.focus());
  }, []);
  return (
    <form onSubmit={(e) => {
      e.preventDefault();
      if (reason.trim()) onConfirm(row, reason.trim());
    }}>
      <p className="mb-2 text-[13px]">{t('registry.cancel.body', { name: row.patientName, exam: row.procedureStep?.name ?? row.modality })}</p>
      <label htmlFor={id} className="mb-1 block text-xs font-medium text-fg-muted">{t('registry.cancel.reason')}</label>
      <input id={id} ref={input} className="input" maxLength={CANCEL_REASON_MAX} value={reason} onChange={(e) => setReason(e.target.value)} data-testid="cancel-reason" />
      <div className="mt-4 flex justify-end gap-2">
        <button type="button" className="btn" onClick={onCancel} disabled={busy}>{t('common.cancel')}</button>
        <button type="submit" className="btn btn-primary" disabled={busy || reason.trim() === ''}>{t('registry.cancel.confirm')}</button>
      </div>
    </form>
  );
}

export function DeleteDialog({ row, busy, onConfirm, onCancel }: {
  row: RegistryRow | null;
  busy: boolean;
  onConfirm: (row: RegistryRow) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog open={row !== null} title={t('registry.delete.title')} busy={busy} focus="cancel" confirmLabel={t('registry.delete.confirm')}
      onConfirm={() => row && onConfirm(row)} onCancel={onCancel} testId="confirm-registry-delete">
      <p>{t('registry.delete.body', { name: row?.patientName ?? '', exam: row?.procedureStep?.name ?? row?.modality ?? '' })}</p>
    </ConfirmDialog>
  );
}

/**
 * Match (areas §4): the patient's completed exams that came in without a registration; choosing one makes it this
 * line's exam (Performed), and the scheduled line steps aside. ↑↓ choose, Enter matches.
 */
export function MatchDialog({ row, busy, onConfirm, onCancel }: {
  row: RegistryRow | null;
  busy: boolean;
  onConfirm: (row: RegistryRow, examId: number) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const exams = useLoad(row ? `match:${row.examId}` : null, (signal) => registryApi.patientExams(row!.patientId, { signal }));
  const candidates: ExamListItem[] = (exams.data?.items ?? []).filter((e) => e.id !== row?.examId && e.hasImage);
  const [chosen, setChosen] = useState<number | null>(null);
  const pick = chosen ?? candidates[0]?.id ?? null;
  return (
    <Dialog open={row !== null} title={t('registry.match.title')} onCancel={busy ? undefined : onCancel} width={560}>
      {row && (
        <form onSubmit={(e) => {
          e.preventDefault();
          if (pick !== null) onConfirm(row, pick);
        }}>
          <p className="mb-2 text-[13px]">{t('registry.match.body', { name: row.patientName })}</p>
          {exams.loading ? <Spinner label={t('common.loading')} /> : candidates.length === 0 ? (
            <p className="text-[13px] text-fg-muted" data-testid="match-none">{t('registry.match.none')}</p>
          ) : (
            <fieldset className="flex max-h-64 flex-col gap-1 overflow-auto">
              <legend className="sr-only">{t('registry.match.title')}</legend>
              {candidates.map((exam) => (
                <label key={exam.id} className="flex items-center gap-2 rounded px-2 py-1 text-[13px] hover:bg-sunken">
                  <input type="radio" name="match" checked={pick === exam.id} onChange={() => setChosen(exam.id)} />
                  <span className="font-medium">{exam.modality}</span>
                  <span>{exam.bodyPart ?? exam.studyDescription ?? ''}</span>
                  <span className="ml-auto text-xs text-fg-muted tabular-nums">{formatDateTime(exam.examTime)}</span>
                  <span className="text-xs tabular-nums">{exam.accessionNumber ?? ''}</span>
                </label>
              ))}
            </fieldset>
          )}
          <div className="mt-4 flex justify-end gap-2">
            <button type="button" className="btn" onClick={onCancel} disabled={busy}>{t('common.cancel')}</button>
            <button type="submit" className="btn btn-primary" disabled={busy || pick === null}>{t('registry.match.confirm')}</button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
