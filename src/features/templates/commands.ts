import type { CommandSpec } from '@/lib/commands';
import type { TreeKey } from './treeModel';

/** What the template management screen gives its commands (scope 'templates'). */
export interface TemplatesCommandContext {
  /** Whether the focus is in the tree: the arrows, Enter, F2, Delete and M act on its active row only then. */
  treeFocused(): boolean;
  hasActive: boolean;
  canWrite: boolean;
  canSave: boolean;
  hasTree: boolean;
  key(key: TreeKey): void;
  edit(): void;
  rename(): void;
  newTemplate(): void;
  newFolder(): void;
  remove(): void;
  move(): void;
  save(): void;
  exportTree(): void;
  importTree(): void;
}

type Spec = CommandSpec<TemplatesCommandContext>;
const tree = 'templates.commands.sections.tree';
const file = 'templates.commands.sections.file';

function arrow(key: TreeKey, label: string): Spec {
  return { id: `templates.key.${key}`, label, section: tree, scope: 'templates', shortcut: key, repeat: key === 'ArrowUp' || key === 'ArrowDown', when: (c) => c.treeFocused(), run: (c) => c.key(key) };
}

/** Template management (/templates): the tree by keyboard, the editor's save, export and import. */
export const templatesCommands: readonly Spec[] = [
  arrow('ArrowUp', 'templates.commands.up'),
  arrow('ArrowDown', 'templates.commands.down'),
  arrow('ArrowRight', 'templates.commands.open'),
  arrow('ArrowLeft', 'templates.commands.close'),
  arrow('Home', 'templates.commands.first'),
  arrow('End', 'templates.commands.last'),
  { id: 'templates.edit', label: 'templates.commands.edit', section: tree, scope: 'templates', shortcut: 'Enter', when: (c) => c.treeFocused() && c.hasActive, run: (c) => c.edit() },
  { id: 'templates.rename', label: 'templates.commands.rename', section: tree, scope: 'templates', shortcut: 'F2', when: (c) => c.treeFocused() && c.hasActive && c.canWrite, run: (c) => c.rename() },
  { id: 'templates.delete', label: 'templates.commands.delete', section: tree, scope: 'templates', shortcut: 'Delete', when: (c) => c.treeFocused() && c.hasActive && c.canWrite, run: (c) => c.remove() },
  { id: 'templates.move', label: 'templates.commands.move', section: tree, scope: 'templates', shortcut: 'm', when: (c) => c.treeFocused() && c.hasActive && c.canWrite, run: (c) => c.move() },
  { id: 'templates.newTemplate', label: 'templates.commands.newTemplate', section: file, scope: 'templates', shortcut: 'n', keywords: ['new', '新建', 'template', '模板'], when: (c) => c.hasTree && c.canWrite, run: (c) => c.newTemplate() },
  { id: 'templates.newFolder', label: 'templates.commands.newFolder', section: file, scope: 'templates', shortcut: 'Shift+N', keywords: ['new', '新建', 'folder', '文件夹'], when: (c) => c.hasTree && c.canWrite, run: (c) => c.newFolder() },
  { id: 'templates.save', label: 'templates.commands.save', section: file, scope: 'templates', shortcut: '$mod+s', when: (c) => c.canSave, run: (c) => c.save() },
  { id: 'templates.export', label: 'templates.commands.export', section: file, scope: 'templates', keywords: ['export', 'json', '导出'], when: (c) => c.hasTree, run: (c) => c.exportTree() },
  { id: 'templates.import', label: 'templates.commands.import', section: file, scope: 'templates', keywords: ['import', 'json', '导入'], when: (c) => c.hasTree && c.canWrite, run: (c) => c.importTree() },
];
