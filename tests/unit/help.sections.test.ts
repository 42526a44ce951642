import { describe, expect, it } from 'vitest';
import { commandCatalog } from '@/app/commandCatalog';
import { helpScreens } from '@/app/help/sections';
import type { CommandSpec } from '@/lib/commands';

const spec = (id: string, scope: CommandSpec['scope'], shortcut?: string): CommandSpec<never> => ({ id, label: `l.${id}`, scope, shortcut, run: () => undefined });

describe('the help screen’s shortcut reference', () => {
  it('lists every keyed command of the catalog under its screen, general first, once each', () => {
    const screens = helpScreens({
      a: [spec('w.next', 'worklist', 'j'), spec('w.quiet', 'worklist'), spec('g.palette', 'global', '$mod+k')],
      b: [spec('w.next', 'worklist', 'j'), spec('e.save', 'editor', '$mod+s')],
    });
    expect(screens.map((s) => s.scope)).toEqual(['global', 'worklist', 'editor']);
    expect(screens[1]!.shortcuts).toEqual([{ id: 'w.next', label: 'l.w.next', shortcut: 'j' }]);
  });

  it('is generated from the app’s catalog: the help key itself and the worklist’s keys are there', () => {
    const screens = helpScreens(commandCatalog);
    const all = screens.flatMap((s) => s.shortcuts.map((c) => c.id));
    expect(all).toContain('nav.help');
    expect(screens.find((s) => s.scope === 'global')!.shortcuts.find((c) => c.id === 'nav.help')!.shortcut).toBe('F1');
    const keyed = Object.values(commandCatalog).flat().filter((c) => c.shortcut);
    expect(new Set(all)).toEqual(new Set(keyed.map((c) => c.id)));
  });
});
