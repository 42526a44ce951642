import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../contract/constants';
import { groupCommands } from '@/features/palette/grouping';
import { rankGroups, scoreCommand, type SearchFields } from '@/features/palette/search';
import { commandCatalog } from '@/app/commandCatalog';
import type { Command, Scope } from '@/lib/commands';

const fields = (label: string, extra: Partial<SearchFields> = {}): SearchFields => ({ label, heading: '', id: '', keywords: [], ...extra });

describe('palette search', () => {
  it('finds a label by its start, a word inside it, or any part of it, in that order', () => {
    const start = scoreCommand('prof', fields('Profile'));
    const word = scoreCommand('shortcuts', fields('Show keyboard shortcuts'));
    const inside = scoreCommand('ofil', fields('Profile'));
    expect(start).toBeGreaterThan(word);
    expect(word).toBeGreaterThan(inside);
    expect(inside).toBeGreaterThan(0);
  });

  it('ignores case and full-width forms', () => {
    expect(scoreCommand('PROFILE', fields('Profile'))).toBe(1);
    expect(scoreCommand('ｐｒｏｆｉｌｅ', fields('Profile'))).toBe(1);
  });

  it('finds initials of words, and Chinese characters that are not adjacent', () => {
    expect(scoreCommand('ks', fields('Show keyboard shortcuts'))).toBeGreaterThan(0);
    expect(scoreCommand('个资', fields('个人资料'))).toBeGreaterThan(0);
    expect(scoreCommand('ཆ་འཕྲིན', fields('རང་གི་ཆ་འཕྲིན།'))).toBeGreaterThan(0);
  });

  it('does not find a label by letters scattered through it', () => {
    expect(scoreCommand('set', fields('Show keyboard shortcuts'))).toBe(0);
    expect(scoreCommand('zz', fields('Profile'))).toBe(0);
  });

  it('also finds a command by its id, its keywords and its heading, below a label match', () => {
    const byLabel = scoreCommand('profile', fields('Profile'));
    const byId = scoreCommand('profile', fields('个人资料', { id: 'nav.profile' }));
    const byKeyword = scoreCommand('settings', fields('个人资料', { keywords: ['/settings/profile'] }));
    const byHeading = scoreCommand('go', fields('Profile', { heading: 'Go to' }));
    expect(byLabel).toBeGreaterThan(byId);
    expect(byId).toBeGreaterThan(byHeading);
    expect(byKeyword).toBeGreaterThan(0);
    expect(byHeading).toBeGreaterThan(0);
  });

  it('needs every word of the search to be found', () => {
    expect(scoreCommand('go profile', fields('Profile', { heading: 'Go to' }))).toBeGreaterThan(0);
    expect(scoreCommand('go registry', fields('Profile', { heading: 'Go to' }))).toBe(0);
  });
});

type Tree = { [key: string]: string | Tree };
const locale = (lng: string) => JSON.parse(readFileSync(new URL(`../../locales/${lng}.json`, import.meta.url), 'utf8')) as Tree;
const textOf = (tree: Tree, key: string) => String(key.split('.').reduce<string | Tree | undefined>((o, k) => (typeof o === 'object' ? o[k] : undefined), tree) ?? key);

/** Every command of the app, as the palette of the report workspace (editor + viewer over global) groups them. */
function paletteOf(lng: string, search: string): string[] {
  const tree = locale(lng);
  const scopes: Scope[] = ['global', 'worklist', 'editor', 'viewer'];
  const commands: Command[] = Object.values(commandCatalog).flat()
    .filter((spec) => scopes.includes(spec.scope))
    .map((spec) => ({ ...spec, when: () => true, run: () => undefined }));
  const fields = (command: Command): SearchFields => ({
    label: textOf(tree, command.label), heading: textOf(tree, command.section ?? `commands.scopes.${command.scope}`), id: command.id, keywords: command.keywords ?? [],
  });
  return rankGroups(groupCommands(commands, scopes), search, fields).flatMap((g) => g.commands.map((c) => c.id));
}

describe('palette ranking', () => {
  it('lists 解锁 with force unlock first', () => {
    expect(paletteOf('chs', '解锁')[0]).toBe('report.forceUnlock');
    expect(paletteOf('en', 'unlock')[0]).toBe('report.forceUnlock');
  });

  it('puts the best match first even when a weaker one is in a group listed above it', () => {
    const cmd = (id: string, label: string, scope: Scope): Command => ({ id, label, scope, when: () => true, run: () => undefined });
    const groups = [
      { heading: 'screen', commands: [cmd('a.weak', '解除分配并锁定', 'editor'), cmd('a.none', '保存', 'editor')] },
      { heading: 'manage', commands: [cmd('b.other', '删除', 'editor'), cmd('b.strong', '强制解锁', 'editor')] },
    ];
    const ranked = rankGroups(groups, '解锁', (c) => ({ label: c.label, heading: '', id: c.id, keywords: [] }));
    expect(ranked.map((g) => g.commands.map((c) => c.id))).toEqual([['b.strong'], ['a.weak']]);
    expect(rankGroups(groups, '  ', (c) => ({ label: c.label, heading: '', id: c.id, keywords: [] }))).toEqual(groups);
  });

  it.each(LANGUAGES)('%s: an empty search lists every command, a search only those it finds', (lng) => {
    const all = paletteOf(lng, '');
    expect(all.length).toBeGreaterThan(10);
    expect(paletteOf(lng, 'zzzz')).toEqual([]);
  });
});
