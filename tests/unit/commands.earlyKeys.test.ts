// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bindRegistryKeys } from '@/lib/commands/binding';
import { EARLY_KEY_MAX_AGE_MS, resetEarlyKeys, startEarlyKeys } from '@/lib/commands/earlyKeys';
import { CommandRegistry } from '@/lib/commands/registry';
import type { Command } from '@/lib/commands/types';

/**
 * Keys pressed before the shell's code has bound the shortcuts (issue 37: Ctrl+K just after sign-in opened nothing)
 * are replayed once a binding is on the window — but never a key typed into a text field.
 */
const keydown = (target: EventTarget, key: string, o: KeyboardEventInit = {}) => {
  const event = new KeyboardEvent('keydown', { key, code: key.length === 1 ? `Key${key.toUpperCase()}` : key, bubbles: true, cancelable: true, ...o });
  target.dispatchEvent(event);
  return event;
};
const command = (id: string, shortcut: string, run: () => void): Command => ({ id, label: id, shortcut, scope: 'global', when: () => true, run });

function registryWith(shortcut: string, run: () => void) {
  const registry = new CommandRegistry();
  registry.register([command('c', shortcut, run)]);
  registry.pushScope('global');
  return registry;
}

startEarlyKeys(window);

afterEach(() => {
  resetEarlyKeys();
  vi.useRealTimers();
  document.body.innerHTML = '';
});

describe('keys pressed before the shortcuts are bound', () => {
  it('replays a Ctrl+K pressed before the binding, once, and keeps the browser from taking it meanwhile', () => {
    vi.useFakeTimers();
    const open = vi.fn();
    const early = keydown(document.body, 'k', { ctrlKey: true });
    expect(early.defaultPrevented).toBe(true);
    const unbind = bindRegistryKeys(registryWith('Control+k', open), window);
    expect(open).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(open).toHaveBeenCalledTimes(1);
    // Bound now: a later press runs once, and nothing is kept for another binding.
    keydown(document.body, 'k', { ctrlKey: true });
    expect(open).toHaveBeenCalledTimes(2);
    unbind();
  });

  it('does not replay a plain key typed into a text field, but does a chord pressed there', () => {
    vi.useFakeTimers();
    const input = document.body.appendChild(document.createElement('input'));
    const typed = vi.fn();
    const chord = vi.fn();
    keydown(input, 'j');
    keydown(input, 'k', { ctrlKey: true });
    const registry = registryWith('j', typed);
    registry.register([command('p', 'Control+k', chord)]);
    const unbind = bindRegistryKeys(registry, window);
    vi.advanceTimersByTime(1);
    expect(typed).not.toHaveBeenCalled();
    expect(chord).toHaveBeenCalledTimes(1);
    unbind();
  });

  it('drops presses older than the window and presses a component already handled', () => {
    vi.useFakeTimers();
    const run = vi.fn();
    keydown(document.body, 'j');
    vi.advanceTimersByTime(EARLY_KEY_MAX_AGE_MS + 1);
    const handled = new KeyboardEvent('keydown', { key: 'j', code: 'KeyJ', bubbles: true, cancelable: true });
    document.body.addEventListener('keydown', (e) => e.preventDefault(), { once: true });
    document.body.dispatchEvent(handled);
    const unbind = bindRegistryKeys(registryWith('j', run), window);
    vi.advanceTimersByTime(1);
    expect(run).not.toHaveBeenCalled();
    unbind();
  });

  it('a binding released before the replay leaves the keys to the next one (a double mount)', () => {
    vi.useFakeTimers();
    const run = vi.fn();
    keydown(document.body, 'k', { ctrlKey: true });
    const registry = registryWith('Control+k', run);
    bindRegistryKeys(registry, window)();
    const unbind = bindRegistryKeys(registry, window);
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(1);
    unbind();
  });

  it('keeps keys again once the last binding is gone (signed out, then in again)', () => {
    vi.useFakeTimers();
    const run = vi.fn();
    const registry = registryWith('Control+k', run);
    bindRegistryKeys(registry, window)();
    vi.advanceTimersByTime(1);
    keydown(document.body, 'k', { ctrlKey: true });
    expect(run).not.toHaveBeenCalled();
    const unbind = bindRegistryKeys(registry, window);
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(1);
    unbind();
  });
});
