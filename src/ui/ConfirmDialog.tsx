import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from './Dialog';

interface Props {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  /** `danger` for what cannot be taken back, `primary` for what is one click from undone. */
  tone?: 'danger' | 'primary';
  /**
   * Where the focus starts. `confirm`: Enter confirms at once (revoking a link, unpublishing). `cancel`: the user
   * must Tab to the confirm button first, for what destroys work (resetting or deleting a report).
   */
  focus?: 'confirm' | 'cancel';
  busyLabel?: string;
  testId?: string;
}

/**
 * Asks before an action with consequences. Esc or Cancel keeps things as they are; while the call runs both buttons
 * wait (and Esc does nothing), so a second Enter cannot send it twice.
 */
export function ConfirmDialog({ open, title, onCancel, busy, ...body }: Props) {
  return (
    <Dialog open={open} title={title} onCancel={busy ? undefined : onCancel} width={420}>
      {open && <ConfirmBody busy={busy} onCancel={onCancel} {...body} />}
    </Dialog>
  );
}

function ConfirmBody({ children, confirmLabel, busy, onConfirm, onCancel, tone = 'danger', focus = 'confirm', busyLabel, testId }: Omit<Props, 'open' | 'title'>) {
  const { t } = useTranslation();
  const confirm = useRef<HTMLButtonElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  // The native dialog focuses its first button when it opens, after this effect: place the focus next frame. A key
  // pressed before that frame (a quick Tab from Cancel to the confirm button) is the user's own move: the frame must
  // not take the focus back to where it started.
  useEffect(() => {
    let keyed = false;
    const onKey = () => { keyed = true; };
    window.addEventListener('keydown', onKey, true);
    const frame = requestAnimationFrame(() => {
      window.removeEventListener('keydown', onKey, true);
      if (!keyed) (focus === 'confirm' ? confirm : cancel).current?.focus();
    });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('keydown', onKey, true);
    };
  }, [focus]);
  const toneClass = tone === 'danger' ? 'border-danger bg-danger text-surface hover:bg-danger/90' : 'btn-primary';
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (!busy) onConfirm();
      }}
    >
      <div className="text-sm text-fg">{children}</div>
      <div className="mt-4 flex justify-end gap-2">
        <button ref={cancel} type="button" className="btn" onClick={onCancel} disabled={busy}>{t('common.cancel')}</button>
        <button ref={confirm} type="submit" className={`btn ${toneClass}`} data-testid={testId ?? 'confirm-dialog-ok'} disabled={busy}>
          {busy && busyLabel ? busyLabel : confirmLabel}
        </button>
      </div>
    </form>
  );
}
