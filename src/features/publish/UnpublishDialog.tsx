import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '@/ui/Dialog';

export interface UnpublishTarget {
  reportId: number;
  patientName: string;
}

/**
 * Asks before a report leaves the patients' list. The confirm button has the focus, so `u` then Enter (or a click
 * and Enter) unpublishes; Esc or Cancel keeps it. Publishing again is one click away, so this is a check, not a wall.
 */
export function UnpublishDialog({ target, busy, onConfirm, onCancel }: {
  target: UnpublishTarget | null;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={target !== null} title={t('publish.unpublish.title')} onCancel={busy ? undefined : onCancel} width={420}>
      {target && <Confirm target={target} busy={busy} onConfirm={onConfirm} onCancel={onCancel} />}
    </Dialog>
  );
}

function Confirm({ target, busy, onConfirm, onCancel }: { target: UnpublishTarget; busy: boolean; onConfirm: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const confirm = useRef<HTMLButtonElement>(null);
  // The native dialog focuses its first button (Cancel) when it opens, after this effect: take the focus next frame.
  useEffect(() => {
    const frame = requestAnimationFrame(() => confirm.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, []);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (!busy) onConfirm();
      }}
    >
      <p className="text-sm text-fg">{t('publish.unpublish.body', { name: target.patientName })}</p>
      <p className="mt-1 text-xs text-fg-muted">{t('publish.unpublish.hint')}</p>
      <div className="mt-4 flex justify-end gap-2">
        <button type="button" className="btn" onClick={onCancel} disabled={busy}>{t('common.cancel')}</button>
        <button ref={confirm} type="submit" className="btn btn-primary" data-testid="confirm-unpublish" disabled={busy}>
          {busy ? t('publish.unpublish.working') : t('publish.unpublish.confirm')}
        </button>
      </div>
    </form>
  );
}
