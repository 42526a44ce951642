import { tinykeys, type KeybindingsMap } from 'tinykeys';
import { holdEarlyKeys } from './earlyKeys';
import { parseShortcut } from './keys';
import type { CommandRegistry } from './registry';
import { MODAL_SCOPES } from './scopes';
import { isTextField } from './textField';

/**
 * Key events the registry leaves alone: IME composition (Chinese and Tibetan input), events a component
 * already handled, and plain keys typed into a text field — there 'g p' is text, not a go-to. Keys held with
 * Ctrl/Cmd/Alt are never typed text, so they pass.
 */
export function ignoreKeyEvent(event: KeyboardEvent): boolean {
  if (event.isComposing || event.defaultPrevented) return true;
  return isTextField(event.target) && !isCommandChord(event);
}

function isCommandChord(event: KeyboardEvent): boolean {
  return event.ctrlKey || event.metaKey || event.altKey;
}

/**
 * A <dialog> opened by code that does not push the 'dialog' scope (src/ui/Dialog, a feature's own) still
 * silences the page's plain keys: a 'g s' pressed on its buttons must not move the page behind it.
 */
function foreignDialogOpen(registry: CommandRegistry, target: Window | HTMLElement): boolean {
  const doc = 'document' in target ? target.document : target.ownerDocument;
  return !registry.scopes().some((scope) => MODAL_SCOPES.has(scope)) && doc.querySelector('dialog[open]') !== null;
}

/** Keys pressed on their own as part of a chord (the Shift of 'g Shift+S'): they neither begin nor end a sequence. */
const MODIFIERS = new Set(['shift', 'control', 'alt', 'meta', 'capslock', 'altgraph']);

/** tinykeys' default: a sequence's next press must come within this time. */
const SEQUENCE_TIMEOUT_MS = 1000;

/**
 * Keeps one tinykeys binding on `target` for the registry's live shortcuts, rebuilt when that set changes
 * (not on every registry change: rebuilding drops a half-typed sequence such as the 'g' of 'g s').
 * Returns the function that removes it.
 */
export function bindRegistryKeys(registry: CommandRegistry, target: Window | HTMLElement = window): () => void {
  let unbind: () => void = () => {};
  let signature: string | null = null;
  // A set that changes while a sequence is half-typed (a list's commands registering as its rows arrive, just after
  // the 'g' of 'g c') waits until the sequence would have timed out, so the press is not lost; meanwhile the old
  // binding serves, and dispatch runs only commands that are live.
  let lastKeyAt = -Infinity;
  let deferred: ReturnType<typeof setTimeout> | null = null;
  // The keys that begin a sequence ('g' of 'g s'); only those hold a rebuild back, so held or typed keys elsewhere
  // never delay new shortcuts.
  let openers = new Set<string>();
  const noteKey = (event: KeyboardEvent) => {
    const key = event.key.toLowerCase();
    if (openers.has(key)) {
      lastKeyAt = Date.now();
      return;
    }
    if (MODIFIERS.has(key) || lastKeyAt === -Infinity) return;
    // Any other key ends the half-typed sequence (it completed it, as the 'c' of 'g c', or broke it): a rebuild held
    // back for it runs at once — after tinykeys has seen this key — so the next page's keys ('j' on the list 'g c'
    // opened) are live without waiting out the sequence's timeout. CI lost a 'j' pressed in that second.
    lastKeyAt = -Infinity;
    if (deferred) {
      clearTimeout(deferred);
      deferred = setTimeout(() => {
        deferred = null;
        rebuild();
      }, 0);
    }
  };
  target.addEventListener('keydown', noteKey as EventListener, true);

  const rebuild = () => {
    const wait = lastKeyAt + SEQUENCE_TIMEOUT_MS - Date.now();
    if (wait > 0) {
      deferred ??= setTimeout(() => {
        deferred = null;
        rebuild();
      }, wait);
      return;
    }
    // Sequences go first: tinykeys stops at the first binding that fires, and a pending 'g s' must win over a
    // plain 's' bound elsewhere.
    const shortcuts = [...new Set(registry.keyed().map((command) => command.shortcut))].sort(
      (a, b) => parseShortcut(b).length - parseShortcut(a).length || a.localeCompare(b),
    );
    openers = new Set(shortcuts.map(parseShortcut).filter((presses) => presses.length > 1).map((presses) => presses[0]!.key.toLowerCase()));
    const next = shortcuts.join('\n');
    if (next === signature) return;
    signature = next;
    unbind();
    const map: KeybindingsMap = {};
    for (const shortcut of shortcuts) map[shortcut] = (event) => void registry.dispatch(shortcut, event);
    unbind = tinykeys(target, map, {
      ignore: (event) => ignoreKeyEvent(event) || (!isCommandChord(event) && foreignDialogOpen(registry, target)),
    });
  };

  rebuild();
  const unsubscribe = registry.subscribe(rebuild);
  // Keys pressed while this binding's code was still loading are dispatched again now (src/lib/commands/earlyKeys.ts).
  const releaseEarlyKeys = holdEarlyKeys(target);
  return () => {
    releaseEarlyKeys();
    unsubscribe();
    unbind();
    target.removeEventListener('keydown', noteKey as EventListener, true);
    if (deferred) clearTimeout(deferred);
  };
}
