import type { CommandSpec } from '@/lib/commands';
import type { TreeKey } from './model';

/** What the knowledge-base screen gives its commands (scope 'kb'). */
export interface KbCommandContext {
  /** Whether the focus is in the tree: the arrows, Enter, F2, Delete and the moves act on its focused row only then. */
  treeFocused(): boolean;
  hasFocused: boolean;
  canWrite: boolean;
  canSave: boolean;
  key(key: TreeKey): void;
  openItem(): void;
  rename(): void;
  remove(): void;
  move(step: -1 | 1): void;
  moveTo(): void;
  newText(): void;
  newFolder(): void;
  linkTemplate(): void;
  save(): void;
}

type Spec = CommandSpec<KbCommandContext>;
const tree = 'kb.commands.sections.tree';
const items = 'kb.commands.sections.items';

function arrow(key: TreeKey, label: string): Spec {
  return { id: `kb.key.${key}`, label, section: tree, scope: 'kb', shortcut: key, repeat: key === 'ArrowUp' || key === 'ArrowDown', when: (c) => c.treeFocused(), run: (c) => c.key(key) };
}

/** The knowledge base (/kb): the tree by keyboard, its writes, and the text editor's save. */
export const kbCommands: readonly Spec[] = [
  arrow('ArrowUp', 'kb.commands.up'),
  arrow('ArrowDown', 'kb.commands.down'),
  arrow('ArrowRight', 'kb.commands.expand'),
  arrow('ArrowLeft', 'kb.commands.collapse'),
  arrow('Home', 'kb.commands.first'),
  arrow('End', 'kb.commands.last'),
  { id: 'kb.open', label: 'kb.commands.open', section: tree, scope: 'kb', shortcut: 'Enter', when: (c) => c.treeFocused() && c.hasFocused, run: (c) => c.openItem() },
  { id: 'kb.moveUp', label: 'kb.commands.moveUp', section: tree, scope: 'kb', shortcut: 'Alt+ArrowUp', repeat: true, when: (c) => c.treeFocused() && c.hasFocused && c.canWrite, run: (c) => c.move(-1) },
  { id: 'kb.moveDown', label: 'kb.commands.moveDown', section: tree, scope: 'kb', shortcut: 'Alt+ArrowDown', repeat: true, when: (c) => c.treeFocused() && c.hasFocused && c.canWrite, run: (c) => c.move(1) },
  { id: 'kb.moveTo', label: 'kb.commands.moveTo', section: items, scope: 'kb', shortcut: 'm', keywords: ['move', '移动', 'folder', '文件夹'], when: (c) => c.treeFocused() && c.hasFocused && c.canWrite, run: (c) => c.moveTo() },
  { id: 'kb.rename', label: 'kb.commands.rename', section: items, scope: 'kb', shortcut: 'F2', when: (c) => c.treeFocused() && c.hasFocused && c.canWrite, run: (c) => c.rename() },
  { id: 'kb.delete', label: 'kb.commands.delete', section: items, scope: 'kb', shortcut: 'Delete', when: (c) => c.treeFocused() && c.hasFocused && c.canWrite, run: (c) => c.remove() },
  { id: 'kb.newText', label: 'kb.commands.newText', section: items, scope: 'kb', shortcut: 'n', keywords: ['new', '新建', 'text', '文本'], when: (c) => c.canWrite, run: (c) => c.newText() },
  { id: 'kb.newFolder', label: 'kb.commands.newFolder', section: items, scope: 'kb', shortcut: 'Shift+N', keywords: ['new', '新建', 'folder', '文件夹'], when: (c) => c.canWrite, run: (c) => c.newFolder() },
  { id: 'kb.linkTemplate', label: 'kb.commands.linkTemplate', section: items, scope: 'kb', shortcut: 't', keywords: ['template', '模板', 'link', '链接'], when: (c) => c.canWrite, run: (c) => c.linkTemplate() },
  { id: 'kb.save', label: 'kb.commands.save', section: items, scope: 'kb', shortcut: '$mod+s', when: (c) => c.canSave, run: (c) => c.save() },
];
