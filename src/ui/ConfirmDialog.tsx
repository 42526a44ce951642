import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from './Dialog';

/**
 * Asks before something that cannot be taken back (revoking a link). The confirm button has the focus, so Enter
 * confirms and Esc or Cancel keeps things as they are; while the call runs both buttons wait.
 */
export function ConfirmDialog({ open, title, children, confirmLabel, busy, onConfirm, onCancel }: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Dialog open={open} title={title} onCancel={busy ? undefined : onCancel} width={420}>
      <ConfirmBody confirmLabel={confirmLabel} busy={busy} onConfirm={onConfirm} onCancel={onCancel}>{children}</ConfirmBody>
    </Dialog>
  );
}

function ConfirmBody({ children, confirmLabel, busy, onConfirm, onCancel }: { children: ReactNode; confirmLabel: string; busy: boolean; onConfirm: () => void; onCancel: () => void }) {
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
      <div className="text-sm text-fg">{children}</div>
      <div className="mt-4 flex justify-end gap-2">
        <button type="button" className="btn" onClick={onCancel} disabled={busy}>{t('common.cancel')}</button>
        <button ref={confirm} type="submit" className="btn border-danger bg-danger text-surface hover:bg-danger/90" data-testid="confirm-dialog-ok" disabled={busy}>
          {confirmLabel}
        </button>
      </div>
    </form>
  );
}
