import type { CommandSpec } from '@/lib/commands';

/** What the pathology command needs: whether a group of the account has a pathology system, and the opener. */
export interface PathologyCtx {
  available: boolean;
  open(): void;
}

const keywords = ['pathology', '病理', 'LIS'];

/** Core §2 "pathology" with the exam in hand: from the report workspace… */
export const pathologyEditorCommands: readonly CommandSpec<PathologyCtx>[] = [
  { id: 'pathology.open.editor', label: 'pathology.commands.open', scope: 'editor', shortcut: 'Alt+Shift+KeyP', keywords, when: (c) => c.available, run: (c) => c.open() },
];

/** …and from the worklist, for the focused exam. */
export const pathologyWorklistCommands: readonly CommandSpec<PathologyCtx>[] = [
  { id: 'pathology.open.worklist', label: 'pathology.commands.open', scope: 'worklist', shortcut: 'Shift+P', keywords, when: (c) => c.available, run: (c) => c.open() },
];
