import { useEffect, useId, useRef, type ReactNode } from 'react';

interface DialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  /** Escape closes the dialog only when this is given; the "Login expired" dialog cannot be dismissed. */
  onCancel?: () => void;
  width?: number;
}

/**
 * A modal on the native <dialog>: the page behind stays mounted (and inert) while it is open, focus
 * moves into it and returns afterwards.
 */
export function Dialog({ open, title, children, onCancel, width = 380 }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onCancel?.();
      }}
      className="m-auto rounded-lg border border-line bg-raised p-0 text-fg shadow-lg backdrop:bg-scrim"
      style={{ width, maxWidth: 'calc(100vw - 2rem)' }}
    >
      {open && (
        <div className="p-5">
          <h2 id={titleId} className="mb-3 text-base font-semibold">
            {title}
          </h2>
          {children}
        </div>
      )}
    </dialog>
  );
}
