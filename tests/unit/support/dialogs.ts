/**
 * jsdom has no modal dialogs: these stand in for the browser's. Like the browser, showModal focuses the dialog's first
 * focusable element (src/ui/ConfirmDialog.tsx moves the focus from there one frame later).
 */
export function standInForModalDialogs(): void {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
    this.querySelector<HTMLElement>('button, [href], input, select, textarea, [tabindex]:not([tabindex="-1"])')?.focus();
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
}
