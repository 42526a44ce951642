import dayjs from 'dayjs';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CONSULTATION_REASON_MAX, isPastStart, nextHalfHour } from '../../../../contract/consultations';
import { Dialog } from '@/ui/Dialog';

const LOCAL = 'YYYY-MM-DDTHH:mm';

/** Ctrl/Cmd+Enter submits a dialog's form from any of its fields (Enter alone types a new line in a text area). */
export function submitOnModEnter(event: KeyboardEvent<HTMLFormElement>): void {
  if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey) || event.nativeEvent.isComposing) return;
  event.preventDefault();
  event.currentTarget.requestSubmit();
}

/**
 * Areas §5 "start time required": a date and time, sent as an ISO time with the browser's offset. It proposes the
 * time already set when still ahead, else the next whole half hour; a time already past is refused here and by the
 * server (ConsultationTimePast). Enter or Ctrl+Enter submits.
 */
export function ScheduleDialog({ current, busy, onSubmit, onClose }: { current: string | null; busy: boolean; onSubmit: (iso: string) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const [value, setValue] = useState(() => {
    const now = new Date();
    return current && !isPastStart(new Date(current), now) ? dayjs(current).format(LOCAL) : dayjs(nextHalfHour(now)).format(LOCAL);
  });
  const [tried, setTried] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  const valid = value !== '' && dayjs(value).isValid();
  const past = valid && isPastStart(dayjs(value).toDate(), new Date());
  const problem = !tried ? null : !valid ? t('consultations.detail.schedule.required') : past ? t('errors.ConsultationTimePast') : null;
  return (
    <Dialog open title={t('consultations.detail.schedule.title')} onCancel={busy ? undefined : onClose} width={400}>
      <form noValidate onKeyDown={submitOnModEnter} onSubmit={(e) => {
        e.preventDefault();
        setTried(true);
        if (valid && !isPastStart(dayjs(value).toDate(), new Date())) onSubmit(dayjs(value).format());
      }}>
        <label className="flex flex-col gap-1 text-[12px] text-fg-muted">
          {t('consultations.detail.schedule.time')}
          <input ref={input} type="datetime-local" aria-required="true" className="input" value={value} aria-invalid={problem !== null}
            min={dayjs().format(LOCAL)} onChange={(e) => setValue(e.target.value)} data-testid="schedule-time" />
        </label>
        {problem && <p className="mt-1 text-[13px] text-danger" role="alert">{problem}</p>}
        <p className="mt-2 text-[12px] text-fg-subtle">{t('consultations.detail.schedule.keys')}</p>
        <div className="mt-4 flex justify-end gap-2">
          <button type="button" className="btn" onClick={onClose} disabled={busy}>{t('common.cancel')}</button>
          <button type="submit" className="btn btn-primary" disabled={busy}>{busy ? t('common.saving') : t('consultations.detail.schedule.submit')}</button>
        </div>
      </form>
    </Dialog>
  );
}

/** Areas §4 "canceled (needs a reason)". */
export function CancelDialog({ busy, onSubmit, onClose }: { busy: boolean; onSubmit: (reason: string) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [tried, setTried] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  useEffect(() => input.current?.focus(), []);
  const empty = reason.trim() === '';
  return (
    <Dialog open title={t('consultations.detail.cancel.title')} onCancel={busy ? undefined : onClose} width={440}>
      <form onKeyDown={submitOnModEnter} onSubmit={(e) => {
        e.preventDefault();
        setTried(true);
        if (!empty) onSubmit(reason.trim());
      }}>
        <label className="flex flex-col gap-1 text-[12px] text-fg-muted">
          {t('consultations.detail.cancel.reason')}
          <textarea ref={input} className="input min-h-20 py-1" value={reason} maxLength={CONSULTATION_REASON_MAX} aria-invalid={tried && empty} onChange={(e) => setReason(e.target.value)} data-testid="cancel-reason" />
        </label>
        {tried && empty && <p className="mt-1 text-[13px] text-danger" role="alert">{t('consultations.detail.cancel.required')}</p>}
        <div className="mt-4 flex justify-end gap-2">
          <button type="button" className="btn" onClick={onClose} disabled={busy}>{t('consultations.detail.cancel.keep')}</button>
          <button type="submit" className="btn border-danger bg-danger text-surface hover:bg-danger/90" disabled={busy}>{busy ? t('common.saving') : t('consultations.detail.cancel.submit')}</button>
        </div>
      </form>
    </Dialog>
  );
}

export interface UpdateFields {
  reason: string;
  note: string;
  patientTel: string;
  patientEmail: string;
}

/** The applicant's own fields while the consultation is open (PATCH with the version). */
export function UpdateDialog({ initial, busy, onSubmit, onClose }: { initial: UpdateFields; busy: boolean; onSubmit: (fields: UpdateFields) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const [fields, setFields] = useState(initial);
  const [tried, setTried] = useState(false);
  const set = (key: keyof UpdateFields) => (e: { target: { value: string } }) => setFields((f) => ({ ...f, [key]: e.target.value }));
  const empty = fields.reason.trim() === '';
  return (
    <Dialog open title={t('consultations.detail.update.title')} onCancel={busy ? undefined : onClose} width={480}>
      <form className="flex flex-col gap-2" onKeyDown={submitOnModEnter} onSubmit={(e) => {
        e.preventDefault();
        setTried(true);
        if (!empty) onSubmit({ reason: fields.reason.trim(), note: fields.note.trim(), patientTel: fields.patientTel.trim(), patientEmail: fields.patientEmail.trim() });
      }}>
        <label className="flex flex-col gap-1 text-[12px] text-fg-muted">
          {t('consultations.detail.patient.reason')}
          <textarea autoFocus className="input min-h-16 py-1" value={fields.reason} maxLength={CONSULTATION_REASON_MAX} aria-invalid={tried && empty} onChange={set('reason')} />
        </label>
        {tried && empty && <p className="text-[13px] text-danger" role="alert">{t('consultations.detail.update.reasonRequired')}</p>}
        <label className="flex flex-col gap-1 text-[12px] text-fg-muted">
          {t('consultations.detail.patient.note')}
          <textarea className="input min-h-12 py-1" value={fields.note} maxLength={1000} onChange={set('note')} />
        </label>
        <div className="grid grid-cols-2 gap-2">
          <label className="flex flex-col gap-1 text-[12px] text-fg-muted">
            {t('consultations.detail.patient.tel')}
            <input className="input" value={fields.patientTel} maxLength={32} inputMode="tel" onChange={set('patientTel')} />
          </label>
          <label className="flex flex-col gap-1 text-[12px] text-fg-muted">
            {t('consultations.detail.patient.email')}
            <input className="input" type="email" value={fields.patientEmail} maxLength={128} onChange={set('patientEmail')} />
          </label>
        </div>
        <div className="mt-2 flex justify-end gap-2">
          <button type="button" className="btn" onClick={onClose} disabled={busy}>{t('common.cancel')}</button>
          <button type="submit" className="btn btn-primary" disabled={busy}>{busy ? t('common.saving') : t('common.save')}</button>
        </div>
      </form>
    </Dialog>
  );
}
