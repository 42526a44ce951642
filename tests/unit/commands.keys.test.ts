import { describe, expect, it } from 'vitest';
import { formatShortcut, isModified, parseShortcut } from '@/lib/commands';

describe('shortcut strings', () => {
  it('reads presses and modifiers in tinykeys syntax', () => {
    expect(parseShortcut('g s')).toEqual([
      { modifiers: [], key: 'g' },
      { modifiers: [], key: 's' },
    ]);
    expect(parseShortcut('$mod+Shift+k')).toEqual([{ modifiers: ['$mod', 'Shift'], key: 'k' }]);
    expect(parseShortcut('Alt++')).toEqual([{ modifiers: ['Alt'], key: '+' }]);
  });

  it('counts Ctrl, Cmd and Alt as modifiers that may fire from a text field, and Shift not', () => {
    expect(isModified('$mod+k')).toBe(true);
    expect(isModified('Alt+e')).toBe(true);
    expect(isModified('Control+Shift+p')).toBe(true);
    expect(isModified('Shift+?')).toBe(false);
    expect(isModified('g s')).toBe(false);
    expect(isModified('j')).toBe(false);
    expect(isModified('$mod+k g')).toBe(false);
  });

  it('prints key caps for a PC and for a Mac', () => {
    expect(formatShortcut('$mod+k', false)).toEqual([['Ctrl', 'K']]);
    expect(formatShortcut('$mod+k', true)).toEqual([['⌘', 'K']]);
    // A key named by its place prints its cap.
    expect(formatShortcut('Alt+KeyI', false)).toEqual([['Alt', 'I']]);
    expect(formatShortcut('Alt+KeyI', true)).toEqual([['⌥', 'I']]);
    expect(formatShortcut('g s', false)).toEqual([['G'], ['S']]);
    expect(formatShortcut('Alt+ArrowDown', false)).toEqual([['Alt', '↓']]);
    expect(formatShortcut('Escape', true)).toEqual([['Esc']]);
  });

  it('leaves Shift out in front of a symbol that needs it anyway, but not in front of a letter', () => {
    expect(formatShortcut('Shift+?', false)).toEqual([['?']]);
    expect(formatShortcut('Shift+n', false)).toEqual([['Shift', 'N']]);
  });
});
