import { useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useScope } from '@/lib/commands';

interface Props {
  /** Accessible name; `labelledBy` wins when the dialog shows its own title. */
  label?: string;
  labelledBy?: string;
  onClose: () => void;
  /** Extra keys the dialog handles itself (the sheet closes on '?' too). */
  onKeyDown?: (event: KeyboardEvent<HTMLDialogElement>) => void;
  /** Where the panel sits in the viewport-sized dialog (flex alignment, padding). */
  className?: string;
  children: ReactNode;
}

/**
 * A modal dialog on the native <dialog>: the browser keeps focus inside and the page behind inert. While it is
 * mounted it pushes the 'dialog' scope, so the page's plain-key shortcuts stay quiet. Esc closes; focus goes back
 * to the element that had it when the dialog opened.
 */
export function ModalDialog({ label, labelledBy, onClose, onKeyDown, className = '', children }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  // Taken on the first render, before anything inside the dialog can have taken the focus.
  const [previous] = useState(() => document.activeElement);
  useScope('dialog');

  useLayoutEffect(() => {
    const dialog = ref.current;
    dialog?.showModal();
    // showModal() moves focus by the browser's own rules (the dialog itself, lately); the field the user
    // should type into is marked data-autofocus.
    dialog?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => {
      dialog?.close();
      if (previous instanceof HTMLElement && previous.isConnected) previous.focus({ preventScroll: true });
    };
  }, [previous]);

  const handleKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key === 'Escape' && !event.nativeEvent.isComposing) {
      // Handled here rather than by the browser's cancel, so that closing goes through React state.
      event.preventDefault();
      event.stopPropagation();
      onClose();
      return;
    }
    onKeyDown?.(event);
  };

  return (
    <dialog
      ref={ref}
      aria-label={labelledBy ? undefined : label}
      aria-labelledby={labelledBy}
      onKeyDown={handleKeyDown}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      // A click on the backdrop lands on the <dialog> itself; clicks inside land on its children.
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
      // The dialog covers the viewport so that its own empty area acts as the backdrop; `open:` keeps the
      // browser's display:none for a closed dialog.
      className={`fixed inset-0 m-0 h-full max-h-none w-full max-w-none bg-transparent p-0 backdrop:bg-scrim open:flex ${className}`}
    >
      {children}
    </dialog>
  );
}
