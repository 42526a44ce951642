import type { CommandSpec } from '@/lib/commands';
import { SETTINGS_SECTIONS } from './sections';

/** What the settings commands need: whether a section's screen exists in this build, and the router. */
export interface SettingsCommandContext {
  canOpen(href: string): boolean;
  navigate(href: string): void;
}

/**
 * Palette commands (no keys) that open each settings section from anywhere: "Settings: signature", … They are
 * global and registered by <SettingsCommands /> in the shell once the session is ready.
 */
export const settingsCommands: readonly CommandSpec<SettingsCommandContext>[] = SETTINGS_SECTIONS.map((section) => ({
  id: `settings.open.${section.id}`,
  label: `settings.commands.${section.id}`,
  section: 'settings.commands.section',
  scope: 'global',
  keywords: [section.href, 'settings', '设置'],
  when: (ctx: SettingsCommandContext) => ctx.canOpen(section.href),
  run: (ctx: SettingsCommandContext) => ctx.navigate(section.href),
}));
