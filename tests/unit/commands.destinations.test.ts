import { describe, expect, it, vi } from 'vitest';
import type { VisibleEntry } from '@/lib/session/navEntries';
import { bindCommands } from '@/lib/commands';
import { destinationCommands } from '@/features/palette/destinations';
import { scoreCommand } from '@/features/palette/search';
import { statisticsOpenCommands } from '@/features/statistics';
import en from '../../locales/en.json';
import chs from '../../locales/chs.json';

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

  it('finds the group’s administration first for "group" and "集团", before the statistics of group payments (issue 32)', () => {
    const group = destinationCommands([entry('myGroup', '/groups/1'), entry('statistics', '/group-statistics')]);
    for (const [locale, term] of [[en, 'group'], [chs, '集团']] as const) {
      const text = (key: string) => key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], locale) as string;
      const ranked = [...group, ...statisticsOpenCommands]
        .map((c) => ({ id: c.id, score: scoreCommand(term, { label: text(c.label), heading: '', id: c.id, keywords: c.keywords ?? [] }) }))
        .filter((c) => c.score > 0)
        .sort((a, b) => b.score - a.score);
      expect(ranked[0]?.id).toBe('nav.entry.myGroup');
      expect(ranked[0]!.score).toBeGreaterThan(ranked[1]!.score);
    }
  });
});
