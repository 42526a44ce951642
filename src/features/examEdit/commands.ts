import type { CommandSpec } from '@/lib/commands';

/** What the edit command needs: whether the account holds exam_update on the exam in hand, and the opener. */
export interface ExamEditCtx {
  allowed: boolean;
  edit(): void;
}

const keywords = ['exam', 'patient', 'edit', '检查信息', '编辑', '修改'];

/** "Edit exam information" (exam_update) from the report workspace… */
export const examEditEditorCommands: readonly CommandSpec<ExamEditCtx>[] = [
  { id: 'examEdit.open.editor', label: 'examEdit.commands.open', scope: 'editor', shortcut: 'Alt+Shift+KeyI', keywords, when: (c) => c.allowed, run: (c) => c.edit() },
];

/** …and from the worklist, for the focused exam. */
export const examEditWorklistCommands: readonly CommandSpec<ExamEditCtx>[] = [
  { id: 'examEdit.open.worklist', label: 'examEdit.commands.open', scope: 'worklist', shortcut: 'Shift+I', keywords, when: (c) => c.allowed, run: (c) => c.edit() },
];
