/**
 * Puts text on the clipboard. The Clipboard API needs a secure context (https or localhost); a workstation
 * that opens the app over plain http on the hospital network has none, so the old copy command on a hidden
 * text area stands in. Answers whether the text got there.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused (permissions, focus): try the old way below.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  area.style.pointerEvents = 'none';
  const focused = document.activeElement as HTMLElement | null;
  // Inside an open modal <dialog> the rest of the page is inert: the text area must sit in the dialog.
  const host = focused?.closest('dialog[open]') ?? document.body;
  host.appendChild(area);
  area.select();
  let done: boolean;
  try {
    done = document.execCommand('copy');
  } catch {
    done = false;
  }
  area.remove();
  focused?.focus({ preventScroll: true });
  return done;
}
