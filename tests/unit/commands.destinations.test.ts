import { describe, expect, it, vi } from 'vitest';
import type { VisibleEntry } from '@/lib/session/navEntries';
import { bindCommands } from '@/lib/commands';
import { destinationCommands } from '@/features/palette/destinations';

const entry = (id: string, href: string, external = false): VisibleEntry => ({
  id,
  label: `nav.${id}` as VisibleEntry['label'],
  href,
  external,
  place: 'primary',
});

describe('palette destinations', () => {
  const entries = [
    entry('workstation', '/studies'),
    entry('calling', '/calling'),
    entry('pathology', 'https://pathology.example.org', true),
    entry('profile', '/settings/profile'),
    entry('settings', '/settings'),
  ];

  it('lists the navbar’s other destinations, leaving those with a go-to shortcut to their own command', () => {
    const commands = destinationCommands(entries);
    expect(commands.map((c) => [c.id, c.label, c.shortcut])).toEqual([
      ['nav.entry.calling', 'nav.calling', undefined],
      ['nav.entry.pathology', 'nav.pathology', undefined],
      ['nav.entry.settings', 'nav.settings', undefined],
    ]);
    expect(commands.every((c) => c.section === 'commands.sections.goTo' && c.scope === 'global')).toBe(true);
  });

  it('navigates to an internal destination and opens an external one in a new window', () => {
    const ctx = { navigate: vi.fn(), openExternal: vi.fn() };
    const [calling, pathology] = bindCommands(destinationCommands(entries), () => ctx);
    calling.run();
    pathology.run();
    expect(ctx.navigate.mock.calls).toEqual([['/calling']]);
    expect(ctx.openExternal.mock.calls).toEqual([['https://pathology.example.org']]);
  });
});
