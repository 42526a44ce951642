import type { CommandSpec } from '@/lib/commands';

/**
 * The sample graphs tab (scope 'sampleGraphs', above the organisation's): N uploads a new drawing; in the editor
 * Ctrl+S saves and Delete removes the chosen point. The drawing itself takes arrows (move the crosshair or the
 * chosen point), Enter (place a point), Tab / Shift+Tab (choose the next / previous point) and Esc (choose none).
 */
export interface SampleGraphListContext { upload(): void; canManage: boolean }
export interface SampleGraphEditorContext { save(): void; removePoint(): void; canSave: boolean; hasPoint: boolean }

const section = 'sampleGraphs.commands.section';

export const sampleGraphListCommands: readonly CommandSpec<SampleGraphListContext>[] = [
  { id: 'sampleGraphs.upload', label: 'sampleGraphs.commands.upload', section, scope: 'sampleGraphs', shortcut: 'n', keywords: ['upload', '上传'], when: (c) => c.canManage, run: (c) => c.upload() },
];

export const sampleGraphEditorCommands: readonly CommandSpec<SampleGraphEditorContext>[] = [
  { id: 'sampleGraphs.save', label: 'sampleGraphs.commands.save', section, scope: 'sampleGraphs', shortcut: '$mod+s', when: (c) => c.canSave, run: (c) => c.save() },
  { id: 'sampleGraphs.removePoint', label: 'sampleGraphs.commands.removePoint', section, scope: 'sampleGraphs', shortcut: 'Delete', when: (c) => c.hasPoint, run: (c) => c.removePoint() },
];
