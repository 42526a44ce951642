import type { Command, Scope } from '@/lib/commands';

export interface CommandGroup {
  /** The i18n key of the heading: the commands' section, or their scope's name. */
  heading: string;
  commands: Command[];
}

/**
 * Groups commands under their headings, the innermost scope first (the screen you are on before the global
 * commands), then in the order the commands were registered. Palette and sheet share it, so both read alike.
 */
export function groupCommands(commands: readonly Command[], scopes: readonly Scope[]): CommandGroup[] {
  const depth = (scope: Scope) => scopes.lastIndexOf(scope);
  const ordered = commands
    .map((command, order) => ({ command, order }))
    .sort((a, b) => depth(b.command.scope) - depth(a.command.scope) || a.order - b.order)
    .map(({ command }) => command);
  const groups = new Map<string, CommandGroup>();
  for (const command of ordered) {
    const heading = command.section ?? `commands.scopes.${command.scope}`;
    const group = groups.get(heading) ?? { heading, commands: [] };
    group.commands.push(command);
    groups.set(heading, group);
  }
  return [...groups.values()];
}
