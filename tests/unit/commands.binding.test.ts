// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bindRegistryKeys } from '@/lib/commands/binding';
import { CommandRegistry } from '@/lib/commands/registry';
import type { Command } from '@/lib/commands/types';

/**
 * A sequence typed while the set of shortcuts changes (a list's commands registering as its rows arrive, between the
 * 'g' and the 'c' of 'g c') still runs: rebuilding the binding would drop the half-typed 'g'. CI met it once.
 */
// tinykeys takes only events with a key and a code, as a browser sends them.
const press = (key: string, o: { shiftKey?: boolean } = {}) => window.dispatchEvent(new KeyboardEvent('keydown', { key, code: `Key${key.toUpperCase()}`, bubbles: true, ...o }));
const command = (id: string, shortcut: string, run: () => void): Command => ({ id, label: id, shortcut, scope: 'global', when: () => true, run });

afterEach(() => {
  vi.useRealTimers();
});

describe('the key binding of the command registry', () => {
  it('keeps a half-typed sequence when a new shortcut registers between its presses', () => {
    vi.useFakeTimers();
    const registry = new CommandRegistry();
    const goConsultations = vi.fn();
    registry.register([command('go.consultations', 'g c', goConsultations)]);
    registry.pushScope('global');
    const unbind = bindRegistryKeys(registry, window);
    press('g');
    const askExpert = vi.fn();
    registry.register([command('ask.expert', 'Shift+E', askExpert)]);
    press('c');
    expect(goConsultations).toHaveBeenCalledTimes(1);
    // Once the sequence would have timed out, the new shortcut is live.
    vi.advanceTimersByTime(1000);
    press('E', { shiftKey: true });
    expect(askExpert).toHaveBeenCalledTimes(1);
    unbind();
  });

  it('makes the next page\'s keys live as soon as the sequence that opened it is complete', () => {
    vi.useFakeTimers();
    const registry = new CommandRegistry();
    registry.register([command('go.consultations', 'g c', () => undefined)]);
    registry.pushScope('global');
    const unbind = bindRegistryKeys(registry, window);
    press('g');
    press('c');
    // The list 'g c' opened registers its keys a moment later, well within the sequence's second.
    vi.advanceTimersByTime(100);
    const next = vi.fn();
    registry.register([command('list.next', 'j', next)]);
    vi.advanceTimersByTime(1);
    press('j');
    expect(next).toHaveBeenCalledTimes(1);
    unbind();
  });

  it('does not hold new shortcuts back for keys that begin no sequence', () => {
    const registry = new CommandRegistry();
    registry.register([command('go.consultations', 'g c', () => undefined)]);
    registry.pushScope('global');
    const unbind = bindRegistryKeys(registry, window);
    press('j');
    const next = vi.fn();
    registry.register([command('list.next', 'k', next)]);
    press('k');
    expect(next).toHaveBeenCalledTimes(1);
    unbind();
  });
});
