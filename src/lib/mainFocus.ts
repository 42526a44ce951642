import { useEffect } from 'react';

/**
 * Where the keyboard lands when a screen opens (issue 32): a screen marks its main control — the form's first field,
 * the search, the queue, the grid, the list — with `data-main-control` (spread `MAIN_CONTROL`), and the router
 * (`src/app/AppRoutes.tsx`, `useMainFocus(pathname)`) focuses the first one shown each time the path changes: after
 * sign-in, a `g` key, the palette or a link. Screens load lazily and draw their controls when their data has come, so
 * the watch waits for the mark to appear; it gives up as soon as something else holds the focus (a screen that focuses
 * its own row, a dialog, the user's Tab) — the focus is only ever taken from the page's body.
 */
export const MAIN_CONTROL = { 'data-main-control': '' } as const;

const SELECTOR = '[data-main-control]';
/** How long a screen may take to draw its main control (its data loading on a slow network). */
const WATCH_MS = 15_000;

/** The first marked control under `root` that can take the focus now (not hidden, disabled or under a dialog). */
export function findMainControl(root: ParentNode): HTMLElement | null {
  for (const element of root.querySelectorAll<HTMLElement>(SELECTOR)) {
    if (element.closest('[hidden], [inert], [aria-hidden="true"], dialog')) continue;
    if ((element as HTMLInputElement).disabled) continue;
    if (typeof element.getClientRects === 'function' && element.isConnected && element.getClientRects().length === 0 && hasLayout(element)) continue;
    return element;
  }
  return null;
}

/** jsdom and friends lay nothing out: there an element without boxes is not thereby hidden. */
function hasLayout(element: HTMLElement): boolean {
  return element.ownerDocument.body.getClientRects().length > 0;
}

/** Nobody holds the focus: the body (the last screen's control went away), the main landmark, or nothing. */
export function focusIsFree(doc: Document): boolean {
  const active = doc.activeElement;
  if (!active || active === doc.body || active === doc.documentElement || !active.isConnected) return true;
  return active.id === 'main';
}

/**
 * Focuses the main control once it appears, while the focus is free; answers the stop. A modal dialog open on top
 * (`dialog[open]`, the palette, a confirmation) holds the keyboard: the watch waits until it has gone.
 */
export function watchMainFocus(doc: Document = document, timeoutMs = WATCH_MS): () => void {
  let done = false;
  const view = doc.defaultView;
  const attempt = () => {
    if (done) return;
    if (!focusIsFree(doc)) return stop();
    if (doc.querySelector('dialog[open], [role="dialog"][aria-modal="true"]')) return;
    const root = doc.getElementById('main') ?? doc.body;
    const target = findMainControl(root);
    if (!target) return;
    target.focus({ preventScroll: false });
    if (doc.activeElement === target) stop();
  };
  const observer = view && 'MutationObserver' in view ? new view.MutationObserver(attempt) : null;
  observer?.observe(doc.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['hidden', 'disabled', 'data-main-control', 'open'] });
  const timer = setTimeout(() => stop(), timeoutMs);
  // A focus that moves anywhere on its own (a click, a Tab, a screen's own choice) ends the watch.
  const onFocusIn = (event: FocusEvent) => {
    const target = event.target as Element | null;
    if (target && target !== doc.body && (target as HTMLElement).id !== 'main' && !target.matches(SELECTOR)) stop();
  };
  doc.addEventListener('focusin', onFocusIn, true);
  function stop() {
    if (done) return;
    done = true;
    observer?.disconnect();
    clearTimeout(timer);
    doc.removeEventListener('focusin', onFocusIn, true);
  }
  // After this render's effects (the screen's own focus first).
  const frame = view?.requestAnimationFrame ? view.requestAnimationFrame(attempt) : (attempt(), 0);
  return () => {
    if (frame && view?.cancelAnimationFrame) view.cancelAnimationFrame(frame);
    stop();
  };
}

/** The router's part: on every new path, the new screen's main control takes the free focus. */
export function useMainFocus(pathname: string) {
  useEffect(() => watchMainFocus(document), [pathname]);
}
