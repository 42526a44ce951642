import type { ConsultationStatus } from '../../../contract/consultations';
import type { CommandSpec } from '@/lib/commands';

/** What the consultation list's commands need; the screen builds it every render (commands read the latest). */
export interface ConsultationListCtx {
  rows: number;
  hasActiveRow: boolean;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  canExport: boolean;
  move(step: 1 | -1): void;
  open(): void;
  page(step: 1 | -1): void;
  focusSearch(): void;
  /** null: every status. */
  status(status: ConsultationStatus | null): void;
  refresh(): void;
  exportList(): void;
  toggleMine(): void;
}

/** What the create form's commands need. */
export interface ConsultationCreateCtx {
  canSubmit: boolean;
  submit(): void;
  cancel(): void;
}

/** The "request consultation" entry offered on an exam by the report workspace and the worklist. */
export interface ConsultationRequestCtx {
  allowed: boolean;
  request(): void;
}

const nav = 'consultations.commands.sections.navigate';
const filters = 'consultations.commands.sections.filters';
const form = 'consultations.commands.sections.form';

type ListSpec = CommandSpec<ConsultationListCtx>;

function statusKey(digit: string, status: ConsultationStatus | null, name: string): ListSpec {
  return {
    id: `consultations.status.${name}`,
    label: `consultations.commands.status.${name}`,
    section: filters,
    scope: 'consultations',
    shortcut: digit,
    run: (c) => c.status(status),
  };
}

/**
 * The list (scope 'consultations'), keys as on the worklist: j/k or arrows move, Enter opens, / searches, [ and ]
 * turn pages, 0 all statuses and 1–5 one status, m mine, r refresh.
 */
export const consultationListCommands: readonly ListSpec[] = [
  { id: 'consultations.next', label: 'consultations.commands.next', section: nav, scope: 'consultations', shortcut: 'j', repeat: true, when: (c) => c.rows > 0, run: (c) => c.move(1) },
  { id: 'consultations.previous', label: 'consultations.commands.previous', section: nav, scope: 'consultations', shortcut: 'k', repeat: true, when: (c) => c.rows > 0, run: (c) => c.move(-1) },
  { id: 'consultations.nextArrow', label: 'consultations.commands.next', section: nav, scope: 'consultations', shortcut: 'ArrowDown', repeat: true, when: (c) => c.rows > 0, run: (c) => c.move(1) },
  { id: 'consultations.previousArrow', label: 'consultations.commands.previous', section: nav, scope: 'consultations', shortcut: 'ArrowUp', repeat: true, when: (c) => c.rows > 0, run: (c) => c.move(-1) },
  { id: 'consultations.open', label: 'consultations.commands.open', section: nav, scope: 'consultations', shortcut: 'Enter', when: (c) => c.hasActiveRow, run: (c) => c.open() },
  { id: 'consultations.search', label: 'consultations.commands.search', section: nav, scope: 'consultations', shortcut: '/', run: (c) => c.focusSearch() },
  { id: 'consultations.nextPage', label: 'consultations.commands.nextPage', section: nav, scope: 'consultations', shortcut: ']', when: (c) => c.hasNextPage, run: (c) => c.page(1) },
  { id: 'consultations.previousPage', label: 'consultations.commands.previousPage', section: nav, scope: 'consultations', shortcut: '[', when: (c) => c.hasPreviousPage, run: (c) => c.page(-1) },
  { id: 'consultations.refresh', label: 'consultations.commands.refresh', section: nav, scope: 'consultations', shortcut: 'r', keywords: ['reload'], run: (c) => c.refresh() },
  { id: 'consultations.mine', label: 'consultations.commands.mine', section: filters, scope: 'consultations', shortcut: 'm', keywords: ['my', '我的'], run: (c) => c.toggleMine() },
  statusKey('0', null, 'all'),
  statusKey('1', 0, 'pending'),
  statusKey('2', 1, 'scheduled'),
  statusKey('3', 2, 'discussed'),
  statusKey('4', 3, 'completed'),
  statusKey('5', 4, 'canceled'),
  { id: 'consultations.export', label: 'consultations.commands.export', section: filters, scope: 'consultations', keywords: ['excel', 'xlsx'], when: (c) => c.canExport, run: (c) => c.exportList() },
];

/** The create form (also scope 'consultations'; the list is not mounted with it): chords only, the form has the keys. */
export const consultationCreateCommands: readonly CommandSpec<ConsultationCreateCtx>[] = [
  { id: 'consultations.create.submit', label: 'consultations.commands.submit', section: form, scope: 'consultations', shortcut: '$mod+Enter', when: (c) => c.canSubmit, run: (c) => c.submit() },
  { id: 'consultations.create.cancel', label: 'consultations.commands.cancel', section: form, scope: 'consultations', shortcut: 'Escape', run: (c) => c.cancel() },
];

/** Request a consultation from the report workspace ('editor': a chord, since the editor has the plain keys). */
export const consultationRequestEditorCommands: readonly CommandSpec<ConsultationRequestCtx>[] = [
  { id: 'consultations.request.editor', label: 'consultations.commands.request', scope: 'editor', shortcut: 'Alt+Shift+KeyC', keywords: ['consultation', '会诊'], when: (c) => c.allowed, run: (c) => c.request() },
];

/** …and from the worklist, for the focused exam. */
export const consultationRequestWorklistCommands: readonly CommandSpec<ConsultationRequestCtx>[] = [
  { id: 'consultations.request.worklist', label: 'consultations.commands.request', scope: 'worklist', shortcut: 'Shift+C', keywords: ['consultation', '会诊'], when: (c) => c.allowed, run: (c) => c.request() },
];
