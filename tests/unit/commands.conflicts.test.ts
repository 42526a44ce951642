import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../contract/constants';
import { commandCatalog, scopesTogether } from '@/app/commandCatalog';
import { describeConflict, findConflicts, findDuplicateIds, type KeyedCommand } from '@/lib/commands';

const allCommands = Object.values(commandCatalog).flat();

describe('findConflicts', () => {
  const c = (id: string, scope: KeyedCommand['scope'], shortcut?: string): KeyedCommand => ({ id, scope, shortcut });

  it('reports two commands of one scope claiming the same keys', () => {
    const conflicts = findConflicts([c('worklist.next', 'worklist', 'j'), c('worklist.jump', 'worklist', 'J')]);
    expect(conflicts.map(describeConflict)).toEqual([
      "worklist.next (worklist, 'j') claims the same keys as worklist.jump (worklist, 'J')",
    ]);
  });

  it('reports a global command and a screen command claiming the same keys', () => {
    const conflicts = findConflicts([c('nav.studies', 'global', 'g s'), c('viewer.series', 'viewer', 'g s')]);
    expect(conflicts).toEqual([
      { kind: 'same', a: { id: 'nav.studies', scope: 'global', shortcut: 'g s' }, b: { id: 'viewer.series', scope: 'viewer', shortcut: 'g s' } },
    ]);
  });

  it('reports a single key that is the first press of a sequence, which would swallow it', () => {
    const conflicts = findConflicts([c('nav.studies', 'global', 'g s'), c('worklist.group', 'worklist', 'g')]);
    expect(conflicts.map((x) => x.kind)).toEqual(['prefix']);
  });

  it('treats $mod as Ctrl on PCs and as Cmd on Macs', () => {
    expect(findConflicts([c('a', 'global', '$mod+k'), c('b', 'editor', 'Control+K')])).toHaveLength(1);
    expect(findConflicts([c('a', 'global', '$mod+k'), c('b', 'editor', 'Meta+k')])).toHaveLength(1);
    expect(findConflicts([c('a', 'global', '$mod+k'), c('b', 'editor', 'Alt+k')])).toEqual([]);
  });

  it('allows the same keys on screens that are never active together', () => {
    expect(findConflicts([c('worklist.open', 'worklist', 'o'), c('registry.open', 'registry', 'o')])).toEqual([]);
  });

  it('reports screens declared to be active together', () => {
    const commands = [c('editor.next', 'editor', 'Alt+n'), c('viewer.next', 'viewer', 'Alt+n')];
    expect(findConflicts(commands)).toEqual([]);
    expect(findConflicts(commands, { together: [['editor', 'viewer']] })).toHaveLength(1);
  });

  it('lets a dialog reuse plain keys of the scopes it masks, but not their modified keys', () => {
    expect(findConflicts([c('worklist.yank', 'worklist', 'y'), c('confirm.yes', 'dialog', 'y')])).toEqual([]);
    expect(findConflicts([c('nav.help', 'global', 'Shift+?'), c('confirm.help', 'dialog', 'Shift+?')])).toEqual([]);
    expect(findConflicts([c('palette.open', 'global', '$mod+k'), c('confirm.keep', 'dialog', '$mod+k')])).toHaveLength(1);
    expect(findConflicts([c('confirm.yes', 'dialog', 'y'), c('picker.yes', 'dialog', 'y')])).toHaveLength(1);
  });

  it('ignores commands without shortcuts and a command compared with itself', () => {
    expect(findConflicts([c('theme', 'global'), c('logout', 'global'), c('x', 'global', 'g x'), c('x', 'global', 'g x')])).toEqual([]);
  });
});

describe('the app’s commands', () => {
  it('has no two commands fighting over a key', () => {
    expect(findConflicts(allCommands, { together: scopesTogether }).map(describeConflict)).toEqual([]);
  });

  it('uses every command id once', () => {
    expect(findDuplicateIds(allCommands)).toEqual([]);
  });

  it('has the go-to shortcuts the product promises', () => {
    const keys = Object.fromEntries(allCommands.filter((cmd) => cmd.shortcut).map((cmd) => [cmd.id, cmd.shortcut]));
    expect(keys).toMatchObject({
      'nav.studies': 'g s',
      'nav.registry': 'g r',
      'nav.consultations': 'g c',
      'nav.profile': 'g p',
      'nav.home': 'g h',
      'palette.open': '$mod+k',
      'shortcuts.open': 'Shift+?',
    });
  });

  it.each(LANGUAGES)('has a %s text for every label and section', (language) => {
    const texts = JSON.parse(readFileSync(new URL(`../../locales/${language}.json`, import.meta.url), 'utf8')) as Record<string, unknown>;
    const lookup = (key: string) => key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], texts);
    const keys = allCommands.flatMap((cmd) => [cmd.label, cmd.section, `commands.scopes.${cmd.scope}`]).filter((k): k is string => Boolean(k));
    expect(keys.filter((key) => typeof lookup(key) !== 'string')).toEqual([]);
  });
});
