import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { REASON_MAX } from '../../../../contract/reports';
import { Dialog } from '@/ui/Dialog';

export type ReasonAction = 'reject' | 'recall' | 'advise';

interface Props {
  action: ReasonAction | null;
  /** Core §4: reject and recall need a reason; advice may go without. */
  required: boolean;
  busy: boolean;
  onConfirm: (reason: string) => void;
  onCancel: () => void;
}

/** Asks the reason of a reject or recall (or the text of an advice). Enter in the field confirms; Shift+Enter is a new line. */
export function ReasonDialog({ action, required, busy, onConfirm, onCancel }: Props) {
  const { t } = useTranslation();
  return (
    <Dialog open={action !== null} title={action ? t(`report.reason.title.${action}`) : ''} onCancel={onCancel} width={480}>
      {action && <ReasonForm action={action} required={required} busy={busy} onConfirm={onConfirm} onCancel={onCancel} />}
    </Dialog>
  );
}

function ReasonForm({ action, required, busy, onConfirm, onCancel }: Props & { action: ReasonAction }) {
  const { t } = useTranslation();
  const id = useId();
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (busy) return;
    if (required && reason.trim() === '') {
      setMissing(true);
      return;
    }
    onConfirm(reason.trim());
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-2" noValidate>
      <label htmlFor={id} className="text-[13px] font-medium text-fg-muted">
        {t(required ? 'report.reason.label' : 'report.reason.optionalLabel')}
      </label>
      <textarea
        id={id}
        autoFocus
        rows={4}
        maxLength={REASON_MAX}
        className="input h-auto resize-none py-1.5"
        aria-invalid={missing || undefined}
        aria-describedby={`${id}-note`}
        value={reason}
        onChange={(event) => {
          setReason(event.target.value);
          setMissing(false);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            // Claimed so Ctrl+Enter here confirms the reason instead of submitting the report behind.
            event.preventDefault();
            event.stopPropagation();
            submit();
          }
        }}
      />
      <p id={`${id}-note`} aria-live="polite" className={`min-h-[1.25rem] text-xs ${missing ? 'text-danger' : 'text-fg-subtle'}`}>
        {missing ? t('report.reason.required') : t('report.reason.counter', { count: reason.length, max: REASON_MAX })}
      </p>
      <div className="flex justify-end gap-2">
        <button type="button" className="btn" onClick={onCancel}>{t('common.cancel')}</button>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {t(`report.reason.confirm.${action}`)}
        </button>
      </div>
    </form>
  );
}
