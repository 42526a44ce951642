import type { CommandSpec } from '@/lib/commands';

/** What the registry desk's commands need; the page builds it every render. */
export interface RegistryContext {
  rows: number;
  hasActiveRow: boolean;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  busy: boolean;
  /** Actions the active row allows (from the server's `transitions`). */
  can: { checkIn: boolean; revoke: boolean; cancel: boolean; match: boolean; remove: boolean; edit: boolean };
  canCreate: boolean;
  canAddLine: boolean;
  canPrint: boolean;
  move(step: 1 | -1): void;
  page(step: 1 | -1): void;
  day(step: 1 | -1 | 0): void;
  refresh(): void;
  focusSearch(): void;
  focusList(): void;
  newPatient(): void;
  save(next: boolean): void;
  addLine(): void;
  toggleSelect(): void;
  checkIn(): void;
  /** A check-in just made can be taken back (the toast's Undo). */
  canUndo: boolean;
  undo(): void;
  revoke(): void;
  cancel(): void;
  match(): void;
  remove(): void;
  edit(): void;
  printLabels(): void;
  exportList(): void;
}

const nav = 'registry.commands.sections.navigate';
const rows = 'registry.commands.sections.rows';
const form = 'registry.commands.sections.form';

/**
 * The registry desk (scope 'registry'). In the form the keys are the form's (Tab, Enter saves, Esc clears);
 * chords work everywhere: Ctrl+Enter saves and starts the next patient, Alt+N a new patient, Alt+A another exam
 * line, Alt+L the list. On the list plain keys act on the row in hand, as on the worklist.
 */
export const registryCommands: readonly CommandSpec<RegistryContext>[] = [
  { id: 'registry.new', label: 'registry.commands.new', section: form, scope: 'registry', shortcut: 'Alt+KeyN', when: (c) => c.canCreate, run: (c) => c.newPatient() },
  { id: 'registry.saveNext', label: 'registry.commands.saveNext', section: form, scope: 'registry', shortcut: '$mod+Enter', when: (c) => c.canCreate && !c.busy, run: (c) => c.save(true) },
  { id: 'registry.save', label: 'registry.commands.save', section: form, scope: 'registry', when: (c) => c.canCreate && !c.busy, run: (c) => c.save(false) },
  { id: 'registry.addLine', label: 'registry.commands.addLine', section: form, scope: 'registry', shortcut: 'Alt+KeyA', when: (c) => c.canAddLine, run: (c) => c.addLine() },
  { id: 'registry.focusList', label: 'registry.commands.focusList', section: nav, scope: 'registry', shortcut: 'Alt+KeyL', when: (c) => c.rows > 0, run: (c) => c.focusList() },
  { id: 'registry.search', label: 'registry.commands.search', section: nav, scope: 'registry', shortcut: '/', run: (c) => c.focusSearch() },
  { id: 'registry.next', label: 'registry.commands.next', section: nav, scope: 'registry', shortcut: 'j', repeat: true, when: (c) => c.rows > 0, run: (c) => c.move(1) },
  { id: 'registry.previous', label: 'registry.commands.previous', section: nav, scope: 'registry', shortcut: 'k', repeat: true, when: (c) => c.rows > 0, run: (c) => c.move(-1) },
  { id: 'registry.nextPage', label: 'registry.commands.nextPage', section: nav, scope: 'registry', shortcut: ']', when: (c) => c.hasNextPage, run: (c) => c.page(1) },
  { id: 'registry.previousPage', label: 'registry.commands.previousPage', section: nav, scope: 'registry', shortcut: '[', when: (c) => c.hasPreviousPage, run: (c) => c.page(-1) },
  { id: 'registry.nextDay', label: 'registry.commands.nextDay', section: nav, scope: 'registry', shortcut: '.', run: (c) => c.day(1) },
  { id: 'registry.previousDay', label: 'registry.commands.previousDay', section: nav, scope: 'registry', shortcut: ',', run: (c) => c.day(-1) },
  { id: 'registry.today', label: 'registry.commands.today', section: nav, scope: 'registry', shortcut: 't', run: (c) => c.day(0) },
  { id: 'registry.refresh', label: 'registry.commands.refresh', section: nav, scope: 'registry', shortcut: 'r', keywords: ['reload'], run: (c) => c.refresh() },
  { id: 'registry.select', label: 'registry.commands.select', section: rows, scope: 'registry', shortcut: 'Space', when: (c) => c.hasActiveRow, run: (c) => c.toggleSelect() },
  { id: 'registry.checkIn', label: 'registry.commands.checkIn', section: rows, scope: 'registry', shortcut: 'i', keywords: ['arrive', '到检', '签到'], when: (c) => c.can.checkIn && !c.busy, run: (c) => c.checkIn() },
  { id: 'registry.undo', label: 'registry.commands.undo', section: rows, scope: 'registry', shortcut: 'Shift+U', keywords: ['undo', '撤销'], when: (c) => c.canUndo && !c.busy, run: (c) => c.undo() },
  { id: 'registry.revoke', label: 'registry.commands.revoke', section: rows, scope: 'registry', shortcut: 'u', keywords: ['undo', '撤销'], when: (c) => c.can.revoke && !c.busy, run: (c) => c.revoke() },
  { id: 'registry.cancel', label: 'registry.commands.cancel', section: rows, scope: 'registry', shortcut: 'x', when: (c) => c.can.cancel && !c.busy, run: (c) => c.cancel() },
  { id: 'registry.match', label: 'registry.commands.match', section: rows, scope: 'registry', shortcut: 'm', when: (c) => c.can.match && !c.busy, run: (c) => c.match() },
  { id: 'registry.edit', label: 'registry.commands.edit', section: rows, scope: 'registry', shortcut: 'e', when: (c) => c.can.edit && !c.busy, run: (c) => c.edit() },
  { id: 'registry.delete', label: 'registry.commands.delete', section: rows, scope: 'registry', shortcut: 'Delete', when: (c) => c.can.remove && !c.busy, run: (c) => c.remove() },
  { id: 'registry.print', label: 'registry.commands.print', section: rows, scope: 'registry', shortcut: 'p', keywords: ['label', '标签'], when: (c) => c.canPrint, run: (c) => c.printLabels() },
  { id: 'registry.export', label: 'registry.commands.export', section: rows, scope: 'registry', keywords: ['excel', 'xlsx'], when: (c) => c.rows > 0 && !c.busy, run: (c) => c.exportList() },
];
