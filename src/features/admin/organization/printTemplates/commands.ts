import type { CommandSpec } from '@/lib/commands';

/** The print templates tab (scope 'printTemplates', above the organisation's): N new, Delete, Ctrl+S save, D default. */
export interface PrintTemplatesContext {
  create(): void;
  remove(): void;
  save(): void;
  makeDefault(): void;
  canRemove: boolean;
  canSave: boolean;
  canMakeDefault: boolean;
}

const section = 'printTemplates.commands.section';

export const printTemplateCommands: readonly CommandSpec<PrintTemplatesContext>[] = [
  { id: 'printTemplates.new', label: 'printTemplates.commands.new', section, scope: 'printTemplates', shortcut: 'n', keywords: ['new', '新建'], run: (c) => c.create() },
  { id: 'printTemplates.delete', label: 'printTemplates.commands.delete', section, scope: 'printTemplates', shortcut: 'Delete', when: (c) => c.canRemove, run: (c) => c.remove() },
  { id: 'printTemplates.save', label: 'printTemplates.commands.save', section, scope: 'printTemplates', shortcut: '$mod+s', when: (c) => c.canSave, run: (c) => c.save() },
  { id: 'printTemplates.default', label: 'printTemplates.commands.makeDefault', section, scope: 'printTemplates', shortcut: 'd', keywords: ['default', '默认'], when: (c) => c.canMakeDefault, run: (c) => c.makeDefault() },
];
