import { isTextField } from './textField';

/**
 * Keys pressed before the registry's shortcuts are live (issue 37): the signed-in frame that binds them is a lazy
 * chunk, so a Ctrl+K pressed just after sign-in, on a cold load, or after a reload met no listener and was lost. From
 * page start (/theme-boot.js records the very first ones, before any module has run) until a binding is on the window,
 * key presses are kept; when `bindRegistryKeys` puts one there, the recent ones are dispatched again so the
 * registry's binding sees them. While no binding is on the window again (signed out), keys are kept again.
 *
 * Never typed twice: a plain key typed into a text field is not kept (the field already has it), and a replayed
 * event is synthetic — the browser inserts no text and moves no focus for it; it only reaches the app's listeners.
 */

/** Older presses are dropped: a key pressed seconds ago and acted on now would surprise. */
export const EARLY_KEY_MAX_AGE_MS = 3000;
const MAX_KEPT = 16;
const MODIFIERS = new Set(['Shift', 'Control', 'Alt', 'Meta', 'CapsLock', 'AltGraph', 'Tab']);

interface Kept {
  event: KeyboardEvent;
  at: number;
}

/** What /theme-boot.js hands over: the presses it saw before this module ran, and the way to stop it. */
interface BootKeys {
  keys: { event: KeyboardEvent; at: number }[];
  stop: () => void;
}

declare global {
  interface Window {
    __earlyKeys?: BootKeys;
  }
}

let kept: Kept[] = [];
/** Bindings on the window now; keys are kept only while there are none. */
let live = 0;
const replayed = new WeakSet<Event>();
let started = false;

function isChord(event: KeyboardEvent): boolean {
  return event.ctrlKey || event.metaKey || event.altKey;
}

/** The palette's key: the browser's own meaning (Chrome: the address bar's search) must not take it while it waits. */
function isPaletteKey(event: KeyboardEvent): boolean {
  return (event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k';
}

function keep(event: KeyboardEvent, at = Date.now()) {
  if (live > 0 || replayed.has(event)) return;
  if (isPaletteKey(event) && !event.defaultPrevented) event.preventDefault();
  kept.push({ event, at });
  if (kept.length > MAX_KEPT) kept.shift();
}

/** Whether a kept press is worth replaying: not handled where it was pressed, not typed text, not a bare modifier. */
function worthReplaying({ event, at }: Kept, now: number): boolean {
  if (now - at > EARLY_KEY_MAX_AGE_MS) return false;
  // The palette key was held back by us, not handled by the page: it still counts.
  if ((event.defaultPrevented && !isPaletteKey(event)) || event.isComposing || MODIFIERS.has(event.key)) return false;
  return !isTextField(event.target) || isChord(event);
}

/** Starts keeping keys (main.tsx calls it first; idempotent), taking over what /theme-boot.js saw. */
export function startEarlyKeys(target: Window = window): void {
  if (started) return;
  started = true;
  const boot = target.__earlyKeys;
  if (boot) {
    boot.stop();
    for (const key of boot.keys) keep(key.event, key.at);
    delete target.__earlyKeys;
  }
  // Bubble phase on the window: a component that handled the key has marked it by then.
  target.addEventListener('keydown', (event) => keep(event));
}

/**
 * A binding goes on `target` (the window): keys stop being kept, and the recent ones are dispatched again, one task
 * later (the effects that register the commands of the same commit have run by then). Returns the release.
 */
export function holdEarlyKeys(target: Window | HTMLElement): () => void {
  if (typeof window === 'undefined' || target !== window) return () => {};
  live += 1;
  let pending: Kept[] | null = kept;
  kept = [];
  const timer = pending.length > 0 ? setTimeout(() => {
    const due = pending ?? [];
    pending = null;
    replay(due);
  }, 0) : null;
  return () => {
    live -= 1;
    if (timer) clearTimeout(timer);
    // Released before the replay (React's development double mount, an unmount in the same task): the next binding
    // replays them instead.
    if (pending && pending.length > 0) kept = [...pending, ...kept];
    pending = null;
  };
}

function replay(pending: Kept[]) {
  const now = Date.now();
  for (const item of pending) {
    if (!worthReplaying(item, now)) continue;
    const { event } = item;
    const copy = new KeyboardEvent('keydown', {
      key: event.key,
      code: event.code,
      location: event.location,
      ctrlKey: event.ctrlKey,
      metaKey: event.metaKey,
      altKey: event.altKey,
      shiftKey: event.shiftKey,
      repeat: event.repeat,
      bubbles: true,
      cancelable: true,
      composed: true,
    });
    replayed.add(copy);
    const origin = event.target instanceof Node && event.target.isConnected ? event.target : document.body;
    origin.dispatchEvent(copy);
  }
}

/** For tests: forget kept keys and bindings. */
export function resetEarlyKeys(): void {
  kept = [];
  live = 0;
}
