import type { CommandSpec } from '@/lib/commands';
import type { VisibleEntry } from '@/lib/session/navEntries';

export interface DestinationContext {
  navigate(path: string): void;
  /** Opens another site (the group's pathology system) in a new window, as the navbar does. */
  openExternal(url: string): void;
}

/** Paths that have their own go-to command with a shortcut (commands.ts); not listed twice. */
const WITH_SHORTCUT = new Set(['/studies', '/registry', '/consultations', '/settings/profile']);

/**
 * The navbar's other destinations as palette commands, so every place the user can open is one search away.
 * Built at run time from the entries this account sees; they have no shortcuts, so they cannot conflict.
 */
export function destinationCommands(entries: readonly VisibleEntry[]): CommandSpec<DestinationContext>[] {
  return entries
    .filter((entry) => !WITH_SHORTCUT.has(entry.href))
    .map((entry) => ({
      id: `nav.entry.${entry.id}`,
      label: entry.label,
      section: 'commands.sections.goTo',
      scope: 'global',
      keywords: [entry.href],
      run: (ctx) => (entry.external ? ctx.openExternal(entry.href) : ctx.navigate(entry.href)),
    }));
}
