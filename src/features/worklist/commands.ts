import type { CommandSpec } from '@/lib/commands';
import type { QuickModality, WorkFilter } from './view';

/** What the worklist's commands need; the screen builds it every render (commands read the latest). */
export interface WorklistCtx {
  rows: number;
  hasFocusedExam: boolean;
  move(step: number): void;
  extend(step: number): void;
  page(direction: 1 | -1): void;
  edge(where: 'first' | 'last'): void;
  toggleSelect(): void;
  open(): void | Promise<unknown>;
  openDetail(): void;
  focusSearch(): void;
  openAdvanced(): void;
  toggleToday(): void;
  toggleQuick(modality: QuickModality): void;
  toggleWork(filter: WorkFilter): void;
  clearQuick(): void;
  canExport: boolean;
  exportRows(): void | Promise<unknown>;
  switchTab(): void;
  /** Moves to the next case this account can write now (the report machine's answer). */
  nextWritable(): void | Promise<unknown>;
  refresh(): void;
  /** Closes the drawer, else clears the selection, else the filters; false when there is nothing to undo. */
  canEscape: boolean;
  escape(): void;
  toggleDeleted(): void;
  /** Shows or hides the lines booked at the registry desk and not performed yet. */
  toggleBooked(): void;
}

type Spec = CommandSpec<WorklistCtx>;

const nav = 'worklist.commands.sections.move';
const filters = 'worklist.commands.sections.filters';
const actions = 'worklist.commands.sections.actions';

function quick(digit: string, modality: QuickModality): Spec {
  return {
    id: `worklist.quick.${modality}`,
    label: `worklist.commands.quick.${modality}`,
    section: filters,
    scope: 'worklist',
    shortcut: digit,
    run: (ctx) => ctx.toggleQuick(modality),
  };
}

/** The worklist's keys (scope 'worklist'); data, so the conflict test reads them without rendering. */
export const worklistCommands: readonly Spec[] = [
  { id: 'worklist.next', label: 'worklist.commands.next', section: nav, scope: 'worklist', shortcut: 'j', repeat: true, when: (c) => c.rows > 0, run: (c) => c.move(1) },
  { id: 'worklist.previous', label: 'worklist.commands.previous', section: nav, scope: 'worklist', shortcut: 'k', repeat: true, when: (c) => c.rows > 0, run: (c) => c.move(-1) },
  { id: 'worklist.nextArrow', label: 'worklist.commands.next', section: nav, scope: 'worklist', shortcut: 'ArrowDown', repeat: true, when: (c) => c.rows > 0, run: (c) => c.move(1) },
  { id: 'worklist.previousArrow', label: 'worklist.commands.previous', section: nav, scope: 'worklist', shortcut: 'ArrowUp', repeat: true, when: (c) => c.rows > 0, run: (c) => c.move(-1) },
  { id: 'worklist.pageDown', label: 'worklist.commands.pageDown', section: nav, scope: 'worklist', shortcut: 'PageDown', repeat: true, when: (c) => c.rows > 0, run: (c) => c.page(1) },
  { id: 'worklist.pageUp', label: 'worklist.commands.pageUp', section: nav, scope: 'worklist', shortcut: 'PageUp', repeat: true, when: (c) => c.rows > 0, run: (c) => c.page(-1) },
  { id: 'worklist.first', label: 'worklist.commands.first', section: nav, scope: 'worklist', shortcut: 'Home', when: (c) => c.rows > 0, run: (c) => c.edge('first') },
  { id: 'worklist.last', label: 'worklist.commands.last', section: nav, scope: 'worklist', shortcut: 'End', when: (c) => c.rows > 0, run: (c) => c.edge('last') },
  { id: 'worklist.extendDown', label: 'worklist.commands.extendDown', section: nav, scope: 'worklist', shortcut: 'Shift+J', repeat: true, when: (c) => c.rows > 0, run: (c) => c.extend(1) },
  { id: 'worklist.extendUp', label: 'worklist.commands.extendUp', section: nav, scope: 'worklist', shortcut: 'Shift+K', repeat: true, when: (c) => c.rows > 0, run: (c) => c.extend(-1) },
  { id: 'worklist.nextWritable', label: 'worklist.commands.nextWritable', section: nav, scope: 'worklist', shortcut: 'n', keywords: ['unreported', '未报告', 'next'], when: (c) => c.rows > 0, run: (c) => c.nextWritable() },
  { id: 'worklist.open', label: 'worklist.commands.open', section: actions, scope: 'worklist', shortcut: 'Enter', when: (c) => c.hasFocusedExam, run: (c) => c.open() },
  { id: 'worklist.detail', label: 'worklist.commands.detail', section: actions, scope: 'worklist', shortcut: 'o', when: (c) => c.hasFocusedExam, run: (c) => c.openDetail() },
  { id: 'worklist.detailSpace', label: 'worklist.commands.detail', section: actions, scope: 'worklist', shortcut: 'Space', when: (c) => c.hasFocusedExam, run: (c) => c.openDetail() },
  { id: 'worklist.select', label: 'worklist.commands.select', section: actions, scope: 'worklist', shortcut: 'x', when: (c) => c.hasFocusedExam, run: (c) => c.toggleSelect() },
  { id: 'worklist.export', label: 'worklist.commands.export', section: actions, scope: 'worklist', shortcut: 'e', when: (c) => c.canExport, run: (c) => c.exportRows() },
  { id: 'worklist.refresh', label: 'worklist.commands.refresh', section: actions, scope: 'worklist', shortcut: 'r', run: (c) => c.refresh() },
  { id: 'worklist.escape', label: 'worklist.commands.escape', section: actions, scope: 'worklist', shortcut: 'Escape', when: (c) => c.canEscape, run: (c) => c.escape() },
  { id: 'worklist.search', label: 'worklist.commands.search', section: filters, scope: 'worklist', shortcut: '/', run: (c) => c.focusSearch() },
  { id: 'worklist.advanced', label: 'worklist.commands.advanced', section: filters, scope: 'worklist', shortcut: 'f', run: (c) => c.openAdvanced() },
  { id: 'worklist.tab', label: 'worklist.commands.tab', section: filters, scope: 'worklist', shortcut: 't', run: (c) => c.switchTab() },
  { id: 'worklist.deleted', label: 'worklist.commands.deleted', section: filters, scope: 'worklist', shortcut: 'Shift+D', run: (c) => c.toggleDeleted() },
  { id: 'worklist.booked', label: 'worklist.commands.booked', section: filters, scope: 'worklist', shortcut: 'b', keywords: ['booked', 'registry', 'scheduled', '预约', '登记'], run: (c) => c.toggleBooked() },
  { id: 'worklist.quick.today', label: 'worklist.commands.quick.today', section: filters, scope: 'worklist', shortcut: '1', run: (c) => c.toggleToday() },
  quick('2', 'xray'),
  quick('3', 'ct'),
  quick('4', 'mr'),
  quick('5', 'us'),
  { id: 'worklist.work.unreported', label: 'worklist.commands.work.unreported', section: filters, scope: 'worklist', shortcut: '6', run: (c) => c.toggleWork('unreported') },
  { id: 'worklist.work.pending', label: 'worklist.commands.work.pending', section: filters, scope: 'worklist', shortcut: '7', run: (c) => c.toggleWork('pending') },
  { id: 'worklist.quick.clear', label: 'worklist.commands.quick.clear', section: filters, scope: 'worklist', shortcut: '0', run: (c) => c.clearQuick() },
];
