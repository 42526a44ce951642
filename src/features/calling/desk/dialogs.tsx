import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/ui/ConfirmDialog';
import { Dialog } from '@/ui/Dialog';
import type { DeskEntry } from './model';

/**
 * U: a passed patient goes back into the queue at a chosen place. 1 is next (the default); a larger number puts
 * them after that many minus one waiting patients; the field holds the focus and Enter confirms.
 */
export function ReturnDialog({ entry, waiting, busy, onConfirm, onCancel }: {
  entry: DeskEntry | null;
  /** How many wait in the queue now: the last place is one after them. */
  waiting: number;
  busy: boolean;
  onConfirm: (entry: DeskEntry, position: number) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={entry !== null} title={t('calling.back.title')} onCancel={busy ? undefined : onCancel} width={380}>
      {entry && <ReturnForm key={entry.id} entry={entry} waiting={waiting} busy={busy} onConfirm={onConfirm} onCancel={onCancel} />}
    </Dialog>
  );
}

function ReturnForm({ entry, waiting, busy, onConfirm, onCancel }: {
  entry: DeskEntry;
  waiting: number;
  busy: boolean;
  onConfirm: (entry: DeskEntry, position: number) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [value, setValue] = useState('1');
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const frame = requestAnimationFrame(() => input.current?.select());
    return () => cancelAnimationFrame(frame);
  }, []);
  const last = waiting + 1;
  const position = Number(value);
  const valid = Number.isInteger(position) && position >= 1 && position <= last;
  return (
    <form onSubmit={(e) => {
      e.preventDefault();
      if (valid && !busy) onConfirm(entry, position);
    }}>
      <p className="mb-3 text-[13px]">{t('calling.back.body', { number: entry.number, name: entry.name })}</p>
      <label htmlFor={id} className="mb-1 block text-xs font-medium text-fg-muted">{t('calling.back.position')}</label>
      <div className="flex items-center gap-2">
        <input id={id} ref={input} type="number" inputMode="numeric" min={1} max={last} step={1} className="input h-8 w-20 tabular-nums" value={value}
          aria-invalid={!valid || undefined} aria-describedby={`${id}-hint`} onChange={(e) => setValue(e.target.value)} data-testid="calling-back-position" />
        <button type="button" className="btn h-8 px-2 text-xs" onClick={() => setValue('1')}>{t('calling.back.next')}</button>
        <button type="button" className="btn h-8 px-2 text-xs" onClick={() => setValue(String(last))}>{t('calling.back.last')}</button>
      </div>
      <p id={`${id}-hint`} className={`mt-1 text-xs ${valid ? 'text-fg-subtle' : 'text-danger'}`}>{t('calling.back.hint', { last })}</p>
      <div className="mt-4 flex justify-end gap-2">
        <button type="button" className="btn" onClick={onCancel} disabled={busy}>{t('common.cancel')}</button>
        <button type="submit" className="btn btn-primary" disabled={busy || !valid} data-testid="calling-back-confirm">{t('calling.back.confirm')}</button>
      </div>
    </form>
  );
}

/** Delete: a patient leaves the queue for good (the registration stays); asks first, focus on Cancel. */
export function RemoveDialog({ entry, busy, onConfirm, onCancel }: {
  entry: DeskEntry | null;
  busy: boolean;
  onConfirm: (entry: DeskEntry) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog open={entry !== null} title={t('calling.remove.title')} busy={busy} focus="cancel" confirmLabel={t('calling.remove.confirm')}
      onConfirm={() => entry && onConfirm(entry)} onCancel={onCancel} testId="calling-remove-confirm">
      <p>{t('calling.remove.body', { number: entry?.number ?? '', name: entry?.name ?? '' })}</p>
    </ConfirmDialog>
  );
}
