import { SCOPES, type CommandSpec, type Scope } from '@/lib/commands';

export interface HelpShortcut {
  id: string;
  /** i18n key of the command's label. */
  label: string;
  shortcut: string;
}

export interface HelpScreen {
  scope: Scope;
  shortcuts: HelpShortcut[];
}

/**
 * The shortcut reference by screen: every command of the catalog that has keys, under its scope, in the order of
 * SCOPES (general first, dialogs last). Built from the same data the key binding registers, so the help cannot list
 * a key that does nothing or miss one that works. A command declared in two lists (a shared one) is listed once.
 */
export function helpScreens(catalog: Record<string, readonly CommandSpec<never>[]>): HelpScreen[] {
  const byScope = new Map<Scope, Map<string, HelpShortcut>>();
  for (const specs of Object.values(catalog)) {
    for (const spec of specs) {
      if (!spec.shortcut) continue;
      const screen = byScope.get(spec.scope) ?? new Map<string, HelpShortcut>();
      if (!screen.has(spec.id)) screen.set(spec.id, { id: spec.id, label: spec.label, shortcut: spec.shortcut });
      byScope.set(spec.scope, screen);
    }
  }
  return SCOPES.flatMap((scope) => {
    const shortcuts = byScope.get(scope);
    return shortcuts ? [{ scope, shortcuts: [...shortcuts.values()] }] : [];
  });
}
