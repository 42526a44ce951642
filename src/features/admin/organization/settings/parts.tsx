import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '@/lib/errorText';
import { Alert } from '@/ui/Alert';
import { useWrite } from '../../ui/useWrite';

/** The pieces the settings tab's tables and their dialogs share: a labelled field, the table's look, a dialog's write. */

/** A small label above its control; `children` gets the control's id. */
export function Field({ label, className = '', children }: { label: string; className?: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-0.5 block text-xs text-fg-muted">{label}</label>
      {children(id)}
    </div>
  );
}

export { HEAD_ROW, ROW, TABLE, TD, TH } from '../../ui/table';
/** A table's last row where a new entry is typed under the columns it fills. */
export const ADD_ROW = 'border-t border-line bg-sunken/60';
/** 3 px of cell, 1 of border and 8 of the field's padding: the typed text starts where the column's text does (`TD`'s 12 px). */
export const ADD_TD = 'px-[3px] py-1.5';
/** The compact controls of an add row (the height of the other admin add forms). */
export const INPUT = 'input h-7 px-2 text-[13px]';
/** `.input` draws a select as read-only (sunken, muted): a menu one can change keeps the field's own colours. */
export const SELECT = 'input h-7 bg-surface py-0 pl-2 pr-6 text-[13px] text-fg';

/**
 * A write from inside a dialog keeps its refusal in the dialog (`DialogError`): a toast would sit under the modal.
 * Success closes it and says so in a toast.
 */
export const useDialogWrite = () => useWrite({ errors: 'inline' });

/** A refused dialog write: the catalogue's text. */
export function DialogError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  return error !== null && error !== undefined ? <div className="mt-3"><Alert>{errorText(t, error)}</Alert></div> : null;
}

/** The dialog's closing row: Cancel, then the submit button. */
export function DialogButtons({ busy, submitLabel, onCancel, disabled = false }: { busy: boolean; submitLabel: string; onCancel: () => void; disabled?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="mt-4 flex justify-end gap-2">
      <button type="button" className="btn" onClick={onCancel} disabled={busy}>{t('common.cancel')}</button>
      <button type="submit" className="btn btn-primary" disabled={busy || disabled}>{busy ? t('common.saving') : submitLabel}</button>
    </div>
  );
}
