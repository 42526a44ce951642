import { RELOGIN_TOAST_MS, TOAST_MAX, TOAST_MS } from '../../../contract/constants';

export type ToastKind = 'info' | 'success' | 'warning' | 'error';
/** 'corner': the global notification area at the bottom right; 'bottom': the short re-login notices (core §8). */
export type ToastPlacement = 'corner' | 'bottom';

export interface ToastInput {
  message: string;
  title?: string;
  kind?: ToastKind;
  placement?: ToastPlacement;
  /** Milliseconds; defaults to 10 s in the corner and 3 s at the bottom. */
  duration?: number;
  /** Two toasts with the same key are duplicates; defaults to placement + title + message. */
  key?: string;
  /** One button on the toast (an Undo): it runs, then the toast leaves. */
  action?: ToastAction;
  /** Called once when the toast leaves, by timer or by the user (polling records the last id seen). */
  onClose?: (reason: 'timeout' | 'dismissed' | 'replaced') => void;
}

export interface ToastAction {
  label: string;
  run: () => void;
}

export interface Toast extends Required<Pick<ToastInput, 'message' | 'kind' | 'placement' | 'duration' | 'key'>> {
  id: number;
  title?: string;
  action?: ToastAction;
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** Milliseconds now; Date.now when left out. */
  now?(): number;
}

export interface ToastStore {
  show(input: ToastInput): number | null;
  /**
   * Shows the toast, or when one with the same key is up, changes its text in place (its timer runs on): a
   * notification that only counts again must not stack or ring. Answers whether it was 'shown' or 'updated'.
   */
  upsert(input: ToastInput & { key: string }): { id: number; outcome: 'shown' | 'updated' };
  /** Whether a toast with this key is up. */
  has(key: string): boolean;
  dismiss(id: number): void;
  /**
   * The toast stays while the user reads it (WCAG 2.2.1): its timer stops while the pointer is over it or focus is in
   * it, and `release` gives it back what was left of its time.
   */
  hold(id: number): void;
  release(id: number): void;
  /** The user closes every toast of an area (Esc on the notifications, or the palette's "dismiss notifications"). */
  dismissAll(placement?: ToastPlacement): void;
  clear(): void;
  list(): readonly Toast[];
  subscribe(listener: () => void): () => void;
}

/**
 * Core §2: up to 3 toasts, duplicates ignored, 10 s each. A store outside React so the HTTP layer,
 * the session and polling can raise toasts; the Toaster component renders it.
 */
export function createToastStore(timers: Timers = globalThis as unknown as Timers): ToastStore {
  let toasts: readonly Toast[] = [];
  let nextId = 1;
  const listeners = new Set<() => void>();
  const handles = new Map<number, unknown>();
  /** When each running timer ends, and what is left of a held one. */
  const deadlines = new Map<number, number>();
  const held = new Map<number, number>();
  const now = () => timers.now?.() ?? Date.now();
  const closers = new Map<number, NonNullable<ToastInput['onClose']>>();

  const emit = () => listeners.forEach((l) => l());

  function remove(id: number, reason: 'timeout' | 'dismissed' | 'replaced') {
    if (!toasts.some((t) => t.id === id)) return;
    toasts = toasts.filter((t) => t.id !== id);
    timers.clearTimeout(handles.get(id));
    handles.delete(id);
    deadlines.delete(id);
    held.delete(id);
    const onClose = closers.get(id);
    closers.delete(id);
    onClose?.(reason);
  }

  function show(input: ToastInput): number | null {
    const placement = input.placement ?? 'corner';
    const key = input.key ?? `${placement}|${input.title ?? ''}|${input.message}`;
    if (toasts.some((t) => t.key === key)) return null;
    const toast: Toast = {
      id: nextId++,
      key,
      message: input.message,
      title: input.title,
      ...(input.action ? { action: input.action } : {}),
      kind: input.kind ?? 'info',
      placement,
      duration: input.duration ?? (placement === 'bottom' ? RELOGIN_TOAST_MS : TOAST_MS),
    };
    // The oldest toast of the same area makes room for the newest.
    const same = toasts.filter((t) => t.placement === placement);
    if (same.length >= TOAST_MAX) remove(same[0]!.id, 'replaced');
    toasts = [...toasts, toast];
    if (input.onClose) closers.set(toast.id, input.onClose);
    start(toast.id, toast.duration);
    emit();
    return toast.id;
  }

  function start(id: number, ms: number) {
    deadlines.set(id, now() + ms);
    handles.set(id, timers.setTimeout(() => {
      remove(id, 'timeout');
      emit();
    }, ms));
  }

  return {
    show,
    upsert(input) {
      const existing = toasts.find((t) => t.key === input.key);
      if (!existing) return { id: show(input)!, outcome: 'shown' };
      toasts = toasts.map((t) => (t.id === existing.id ? { ...t, message: input.message, title: input.title, kind: input.kind ?? t.kind } : t));
      if (input.onClose) closers.set(existing.id, input.onClose);
      emit();
      return { id: existing.id, outcome: 'updated' };
    },
    has: (key) => toasts.some((t) => t.key === key),
    dismiss(id) {
      remove(id, 'dismissed');
      emit();
    },
    hold(id) {
      const deadline = deadlines.get(id);
      if (deadline === undefined || held.has(id)) return;
      timers.clearTimeout(handles.get(id));
      handles.delete(id);
      deadlines.delete(id);
      held.set(id, Math.max(0, deadline - now()));
    },
    release(id) {
      const left = held.get(id);
      if (left === undefined) return;
      held.delete(id);
      // A toast let go in its last instant still shows long enough to be seen leaving.
      start(id, Math.max(left, 1_000));
    },
    dismissAll(placement = 'corner') {
      for (const t of toasts.filter((toast) => toast.placement === placement)) remove(t.id, 'dismissed');
      emit();
    },
    clear() {
      for (const t of toasts) remove(t.id, 'dismissed');
      emit();
    },
    list: () => toasts,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export const toasts = createToastStore();
