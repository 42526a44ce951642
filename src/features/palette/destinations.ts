import type { CommandSpec } from '@/lib/commands';
import type { VisibleEntry } from '@/lib/session/navEntries';

export interface DestinationContext {
  navigate(path: string): void;
  /** Opens another site (the group's pathology system) in a new window, as the navbar does. */
  openExternal(url: string): void;
}

/** Paths that have their own go-to command with a shortcut (commands.ts); not listed twice. */
const WITH_SHORTCUT = new Set(['/studies', '/registry', '/consultations', '/settings/profile', '/help']);

/**
 * Palette labels and words for destinations whose navbar label says too little out of the navbar: "My group" is the
 * group's administration, and a search for "group" must find it before the statistics of group payments (issue 32).
 */
const PALETTE_LABEL: Record<string, string> = { myGroup: 'palette.goTo.myGroup' };
const PALETTE_WORDS: Record<string, readonly string[]> = { myGroup: ['group', '集团', 'admin', 'administration', '管理', 'members', '成员'] };

/**
 * The navbar's other destinations as palette commands, so every place the user can open is one search away.
 * Built at run time from the entries this account sees; they have no shortcuts, so they cannot conflict.
 */
export function destinationCommands(entries: readonly VisibleEntry[]): CommandSpec<DestinationContext>[] {
  return entries
    .filter((entry) => !WITH_SHORTCUT.has(entry.href))
    .map((entry) => ({
      id: `nav.entry.${entry.id}`,
      label: PALETTE_LABEL[entry.id] ?? entry.label,
      section: 'commands.sections.goTo',
      scope: 'global',
      keywords: [entry.href, ...(PALETTE_WORDS[entry.id] ?? [])],
      run: (ctx) => (entry.external ? ctx.openExternal(entry.href) : ctx.navigate(entry.href)),
    }));
}
