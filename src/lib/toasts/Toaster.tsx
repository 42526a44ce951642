import { useLayoutEffect, useRef, useState, useSyncExternalStore, type KeyboardEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { TOAST_WIDTH } from '../../../contract/constants';
import { laneHost, LANE_WIDTH, mountLane } from './lane';
import { placeToasts, type Box, type ToastPlacement } from './placement';
import { toasts as defaultStore, type Toast, type ToastStore } from './store';

/** Narrowest a notification gets to stay beside an area it must not cover. */
const TOAST_MIN_WIDTH = 200;
/** The navbar's height (h-11): the top corners start below it. */
const NAVBAR_HEIGHT = 44;

const CORNER_CLASS: Record<ToastPlacement['corner'], string> = {
  'bottom-right': 'bottom-4 right-4',
  'top-right': 'top-[3.25rem] right-4',
  'bottom-left': 'bottom-4 left-4',
  'top-left': 'top-[3.25rem] left-4',
};

function avoidedAreas(): Box[] {
  return [...document.querySelectorAll('[data-toast-avoid]')]
    .map((el) => el.getBoundingClientRect())
    .filter((r) => r.width > 0 && r.height > 0)
    .map((r) => ({ left: r.left, top: r.top, width: r.width, height: r.height }));
}

/**
 * Keeps the stack off what the screen marks with `data-toast-avoid`. Measured when the toasts change, on resize, and
 * twice a second while any is up: the screen under a toast changes (Enter opens the report workspace, whose action
 * bar appears after the toast did).
 */
function usePlacement(count: number, stack: RefObject<HTMLElement | null>): ToastPlacement {
  const [placement, setPlacement] = useState<ToastPlacement>({ corner: 'bottom-right', width: TOAST_WIDTH });
  useLayoutEffect(() => {
    if (count === 0 || typeof window === 'undefined') return;
    const place = () => {
      const next = placeToasts({
        viewport: { width: window.innerWidth, height: window.innerHeight },
        height: Math.max(stack.current?.offsetHeight ?? 0, 72),
        avoid: avoidedAreas(),
        topInset: NAVBAR_HEIGHT,
        width: TOAST_WIDTH,
        minWidth: TOAST_MIN_WIDTH,
      });
      setPlacement((current) => (current.corner === next.corner && current.width === next.width ? current : next));
    };
    place();
    const timer = window.setInterval(place, 500);
    window.addEventListener('resize', place);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('resize', place);
    };
  }, [count, stack]);
  return placement;
}

const KIND_CLASS: Record<Toast['kind'], string> = {
  info: 'border-l-accent',
  success: 'border-l-ok',
  warning: 'border-l-warn',
  error: 'border-l-danger',
};

/** Whether the pointer is over a card and whether focus is in it: the card's time stands still while either is so. */
function useHeld(onChange: (held: boolean) => void) {
  const state = useRef({ pointer: false, focus: false });
  const set = (part: 'pointer' | 'focus', value: boolean) => {
    const before = state.current.pointer || state.current.focus;
    state.current = { ...state.current, [part]: value };
    const after = state.current.pointer || state.current.focus;
    if (before !== after) onChange(after);
  };
  return {
    onMouseEnter: () => set('pointer', true),
    onMouseLeave: () => set('pointer', false),
    // React's focus events bubble: focus moving to the card's close button lets go and takes hold again at once.
    onFocus: () => set('focus', true),
    onBlur: () => set('focus', false),
  };
}

function ToastCard({ toast, onDismiss, onHeld, closeLabel }: { toast: Toast; onDismiss: () => void; onHeld: (held: boolean) => void; closeLabel: string }) {
  const held = useHeld(onHeld);
  // Esc on a focused notification closes it (and, for a polling toast, records what it showed); the key stops here
  // so the screen under it does not also act on it.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    onDismiss();
  };
  return (
    <div
      tabIndex={0}
      onKeyDown={onKeyDown}
      {...held}
      data-toast-key={toast.key}
      role={toast.kind === 'error' ? 'alert' : 'status'}
      className={`pointer-events-auto flex items-start gap-3 rounded-md border border-line border-l-4 bg-raised px-3 py-2 text-sm text-fg shadow-lg ${KIND_CLASS[toast.kind]}`}
    >
      <div className="min-w-0 flex-1">
        {toast.title && <div className="font-medium">{toast.title}</div>}
        <div className="break-words text-fg-muted">{toast.message}</div>
      </div>
      {toast.action && (
        <button type="button" className="btn h-6 shrink-0 px-2 text-xs" data-toast-action
          onClick={() => {
            toast.action?.run();
            onDismiss();
          }}>
          {toast.action.label}
        </button>
      )}
      <button type="button" onClick={onDismiss} aria-label={closeLabel} className="icon-button -mr-1 shrink-0">
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}

function cornerToasts(store: ToastStore, list: readonly Toast[], closeLabel: string) {
  return list.filter((toast) => toast.placement === 'corner').map((toast) => (
    <ToastCard
      key={toast.id}
      toast={toast}
      onDismiss={() => store.dismiss(toast.id)}
      onHeld={(held) => (held ? store.hold(toast.id) : store.release(toast.id))}
      closeLabel={closeLabel}
    />
  ));
}

/**
 * The notification lane (./lane.ts), placed by the shell beside its screen: as wide as a toast (plus its margins) while
 * corner toasts are up, nothing otherwise. It is in the layout, not over it: the screen beside it is narrower while it
 * is open, so no toast covers any of it. It keeps to the window's height below the navbar (sticky) and stacks its
 * toasts at the bottom, the corner core §2 names. Always in the page, empty and zero wide, so its live region is there
 * before the first toast is announced.
 */
export function ToastLane({ store = defaultStore }: { store?: ToastStore }) {
  const { t } = useTranslation();
  const list = useSyncExternalStore(store.subscribe, store.list, store.list);
  useLayoutEffect(() => mountLane(), []);
  const open = list.some((toast) => toast.placement === 'corner');
  return (
    <section
      aria-label={t('common.notifications')}
      aria-live="polite"
      data-toast-lane=""
      data-open={open ? '' : undefined}
      className={`sticky top-11 flex shrink-0 flex-col justify-end gap-2 self-start overflow-hidden print:hidden ${open ? 'border-l border-line bg-sunken' : ''}`}
      style={{ width: open ? LANE_WIDTH : 0, height: 'calc(100vh - 2.75rem)', padding: open ? 12 : 0 }}
    >
      {cornerToasts(store, list, t('common.dismiss'))}
    </section>
  );
}

/**
 * Renders the two toast areas: the corner toasts (core §2) where no lane holds them (screens without the shell), in a
 * corner clear of the screen's marked areas; and bottom centre, the re-login notices (core §8).
 */
export function Toaster({ store = defaultStore }: { store?: ToastStore }) {
  const { t } = useTranslation();
  const list = useSyncExternalStore(store.subscribe, store.list, store.list);
  const inLane = useSyncExternalStore(laneHost.subscribe, laneHost.mounted, laneHost.mounted);
  const corner = inLane ? [] : list.filter((toast) => toast.placement === 'corner');
  const bottom = list.filter((toast) => toast.placement === 'bottom');
  const stack = useRef<HTMLElement>(null);
  const placement = usePlacement(corner.length, stack);
  return (
    <>
      {!inLane && (
        <section
          ref={stack}
          aria-label={t('common.notifications')}
          aria-live="polite"
          data-corner={placement.corner}
          className={`pointer-events-none fixed z-50 flex max-w-[calc(100vw-2rem)] flex-col gap-2 print:hidden ${CORNER_CLASS[placement.corner]}`}
          style={{ width: placement.width }}
        >
          {cornerToasts(store, corner, t('common.dismiss'))}
        </section>
      )}
      <div aria-live="assertive" className="pointer-events-none fixed bottom-8 left-1/2 z-[60] flex -translate-x-1/2 flex-col items-center gap-2 print:hidden">
        {bottom.map((toast) => (
          <div key={toast.id} role="alert" className="rounded-md bg-fg px-4 py-2 text-sm font-medium text-bg shadow-lg">
            {toast.message}
          </div>
        ))}
      </div>
    </>
  );
}
