/**
 * Reading tinykeys shortcut strings ('$mod+k', 'g s', 'Shift+?') without a keyboard event: to compare two
 * shortcuts (conflicts), to tell modified ones from plain keys (text fields, dialogs), and to print them.
 * The grammar is tinykeys': presses separated by spaces, modifiers joined to the key by '+', '[Mod]' optional.
 */

export interface Press {
  /** Required modifiers as written, '$mod' kept as is (it means Meta on Apple devices, Control elsewhere). */
  modifiers: string[];
  key: string;
}

/** The modifiers that make a press "modified": typing in a text field never produces them. Shift does not count. */
const COMMAND_MODIFIERS = new Set(['$mod', 'Control', 'Meta', 'Alt', 'AltGraph']);

export function parseShortcut(shortcut: string): Press[] {
  return shortcut
    .trim()
    .split(/\s+/)
    .map((press) => {
      // Same split as tinykeys: a '+' joins only after a word or an optional modifier, so 'Shift++' keeps '+'.
      const parts = press.split(/(?<=\w|\])\+/);
      const key = parts.pop() ?? '';
      const modifiers = parts.filter((part) => !/^\[.*\]$/.test(part));
      return { modifiers, key };
    });
}

/** True when every press holds Ctrl, Cmd or Alt: such a shortcut may fire from a text field and under a dialog. */
export function isModified(shortcut: string): boolean {
  return parseShortcut(shortcut).every((press) => press.modifiers.some((mod) => COMMAND_MODIFIERS.has(mod)));
}

export function isApplePlatform(): boolean {
  return typeof navigator === 'object' && /Mac|iPod|iPhone|iPad/.test(navigator.platform);
}

/** One canonical spelling of a press on one platform: '$mod' resolved, modifiers sorted, key case-folded. */
export function canonicalPress(press: Press, apple: boolean): string {
  const mods = press.modifiers.map((mod) => (mod === '$mod' ? (apple ? 'Meta' : 'Control') : mod)).sort();
  return [...mods, press.key.toLowerCase()].join('+');
}

const APPLE_MODIFIERS: Record<string, string> = { $mod: '⌘', Meta: '⌘', Control: '⌃', Alt: '⌥', Shift: '⇧' };
const OTHER_MODIFIERS: Record<string, string> = { $mod: 'Ctrl', Meta: 'Win', Control: 'Ctrl', Alt: 'Alt', Shift: 'Shift' };

/** Key caps are printed as on the keyboard, the same in every language. */
const KEY_CAPS: Record<string, string> = {
  arrowup: '↑',
  arrowdown: '↓',
  arrowleft: '←',
  arrowright: '→',
  enter: 'Enter',
  escape: 'Esc',
  space: 'Space',
  ' ': 'Space',
  delete: 'Del',
  backspace: 'Backspace',
  tab: 'Tab',
  pageup: 'PgUp',
  pagedown: 'PgDn',
  home: 'Home',
  end: 'End',
};

function keyCap(key: string): string {
  // A key named by its place ('KeyI', 'Digit1', for keys that type other characters with Alt on a Mac) shows its cap.
  const placed = /^(?:Key|Digit)(\w)$/.exec(key);
  if (placed) return placed[1]!.toUpperCase();
  return KEY_CAPS[key.toLowerCase()] ?? (key.length === 1 ? key.toUpperCase() : key);
}

/**
 * The caps to print for each press: 'g s' → [['G'], ['S']], '$mod+k' → [['Ctrl', 'K']] (['⌘', 'K'] on a Mac).
 * Shift is left out in front of a symbol that needs it anyway ('Shift+?' prints '?').
 */
export function formatShortcut(shortcut: string, apple = isApplePlatform()): string[][] {
  const names = apple ? APPLE_MODIFIERS : OTHER_MODIFIERS;
  return parseShortcut(shortcut).map(({ modifiers, key }) => {
    const symbol = key.length === 1 && !/[\p{L}\p{N}]/u.test(key);
    const shown = modifiers.filter((mod) => !(mod === 'Shift' && symbol));
    return [...shown.map((mod) => names[mod] ?? mod), keyCap(key)];
  });
}
