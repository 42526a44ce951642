import type { CommandSpec } from '@/lib/commands';

/** What the list's commands need; the list page builds it every render. */
export interface PublishListContext {
  rows: number;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  /** A row has the focus (or was the last one moved to). */
  hasActiveRow: boolean;
  canChooseOrganisation: boolean;
  busy: boolean;
  refresh(): void;
  page(step: 1 | -1): void;
  move(step: 1 | -1): void;
  unpublishActive(): void;
  chooseOrganisation(): void;
}

const nav = 'publish.commands.sections.navigate';
const actions = 'publish.commands.sections.actions';

/**
 * The publishing list (scope 'publish'). Plain keys, as on the worklist: j/k walk the rows (Enter on a row
 * opens it, as a link does), [ and ] turn the page, r reloads, u asks to unpublish the row.
 */
export const publishListCommands: readonly CommandSpec<PublishListContext>[] = [
  { id: 'publish.list.next', label: 'publish.commands.next', section: nav, scope: 'publish', shortcut: 'j', repeat: true, when: (c) => c.rows > 0, run: (c) => c.move(1) },
  { id: 'publish.list.previous', label: 'publish.commands.previous', section: nav, scope: 'publish', shortcut: 'k', repeat: true, when: (c) => c.rows > 0, run: (c) => c.move(-1) },
  { id: 'publish.list.nextPage', label: 'publish.commands.nextPage', section: nav, scope: 'publish', shortcut: ']', when: (c) => c.hasNextPage, run: (c) => c.page(1) },
  { id: 'publish.list.previousPage', label: 'publish.commands.previousPage', section: nav, scope: 'publish', shortcut: '[', when: (c) => c.hasPreviousPage, run: (c) => c.page(-1) },
  { id: 'publish.list.refresh', label: 'publish.commands.refresh', section: actions, scope: 'publish', shortcut: 'r', keywords: ['reload'], run: (c) => c.refresh() },
  { id: 'publish.list.unpublish', label: 'publish.commands.unpublishRow', section: actions, scope: 'publish', shortcut: 'u', when: (c) => c.hasActiveRow && !c.busy, run: (c) => c.unpublishActive() },
  {
    id: 'publish.list.organisation', label: 'publish.commands.organisation', section: actions, scope: 'publish',
    when: (c) => c.canChooseOrganisation, run: (c) => c.chooseOrganisation(),
  },
];

/** What one report's publishing page needs. */
export interface PublishDetailContext {
  canPublish: boolean;
  canUnpublish: boolean;
  hasReport: boolean;
  publish(): void;
  unpublish(): void;
  back(): void;
  openReport(): void;
}

/**
 * One report's publishing page (scope 'publish'). Publishing and unpublishing are the page's buttons and
 * palette entries, never a single key; Esc goes back to the list.
 */
export const publishDetailCommands: readonly CommandSpec<PublishDetailContext>[] = [
  { id: 'publish.detail.publish', label: 'publish.commands.publish', section: actions, scope: 'publish', when: (c) => c.canPublish, run: (c) => c.publish() },
  { id: 'publish.detail.unpublish', label: 'publish.commands.unpublish', section: actions, scope: 'publish', when: (c) => c.canUnpublish, run: (c) => c.unpublish() },
  { id: 'publish.detail.openReport', label: 'publish.commands.openReport', section: actions, scope: 'publish', when: (c) => c.hasReport, run: (c) => c.openReport() },
  { id: 'publish.detail.back', label: 'publish.commands.back', section: nav, scope: 'publish', shortcut: 'Escape', run: (c) => c.back() },
];
