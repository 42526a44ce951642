import type { ReportAction } from '../../contract/reports';

/**
 * What the workspace offers, read from the server's `transitions` and nothing else: the machine in
 * machines/report.ts decided them (DESIGN "one source of truth per rule"). This file only says how each
 * allowed action is presented.
 */

/** The report actions a user starts from the workspace (core §4), in the order the buttons stand. */
export const WORKSPACE_ACTIONS = ['save', 'submit', 'approve', 'reject', 'advise', 'cancelSubmit', 'recall', 'print'] as const;
export type WorkspaceAction = (typeof WORKSPACE_ACTIONS)[number];

export type ReasonNeed = 'required' | 'optional' | null;

export interface OfferedAction {
  action: WorkspaceAction;
  /** The command that runs it (src/features/report/commands.ts); its shortcut is printed on the button. */
  commandId: `report.${WorkspaceAction}`;
  /** i18n key of the button. */
  label: `report.actions.${WorkspaceAction}`;
  /** The one button drawn as primary: the step that moves the report on. */
  primary: boolean;
  /** Core §4: recall and reject each need a reason; advice may carry one. */
  reason: ReasonNeed;
  /** Sends the text in the editors with it (contract CONTENT_ACTIONS). */
  sendsContent: boolean;
}

const REASONS: Partial<Record<WorkspaceAction, ReasonNeed>> = { reject: 'required', recall: 'required', advise: 'optional' };
const SENDS_CONTENT: readonly WorkspaceAction[] = ['save', 'submit', 'approve', 'advise'];

/**
 * Print is offered for a first print (`print`) and for a reprint, which the server records as
 * `update-print-time`; either way the user sees one "Print".
 */
export function allows(transitions: readonly ReportAction[], action: WorkspaceAction): boolean {
  if (action === 'print') return transitions.includes('print') || transitions.includes('update-print-time');
  return transitions.includes(action);
}

/** The buttons for a report, from its `transitions`, with the forward step (approve, else submit) as primary. */
export function offeredActions(transitions: readonly ReportAction[]): OfferedAction[] {
  const offered = WORKSPACE_ACTIONS.filter((action) => allows(transitions, action));
  const primary = offered.includes('approve') ? 'approve' : offered.includes('submit') ? 'submit' : offered.includes('print') ? 'print' : null;
  return offered.map((action) => ({
    action,
    commandId: `report.${action}`,
    label: `report.actions.${action}`,
    primary: action === primary,
    reason: REASONS[action] ?? null,
    sendsContent: SENDS_CONTENT.includes(action),
  }));
}

/** Core §4: editable if save, submit or approve is allowed. */
export function isEditable(transitions: readonly ReportAction[]): boolean {
  return transitions.includes('save') || transitions.includes('submit') || transitions.includes('approve');
}

/** Core §4: pending approval if approve or reject is allowed. */
export function isPendingApproval(transitions: readonly ReportAction[]): boolean {
  return transitions.includes('approve') || transitions.includes('reject');
}

/** The call that records a print: the first print moves the report to printed, a reprint only updates the time. */
export function printCall(transitions: readonly ReportAction[]): 'print' | 'update-print-time' | null {
  if (transitions.includes('print')) return 'print';
  if (transitions.includes('update-print-time')) return 'update-print-time';
  return null;
}

/**
 * The report's housekeeping (core §4: "can also be ... force-unlocked, reset, deleted, recovered, assigned to an
 * account and un-assigned"), offered from the action bar's "More" menu and the palette, each only while the
 * server's `transitions` name it. Lock and unlock stay the workspace's own business (the first edit locks,
 * leaving unlocks), and sync is the external system's call, so neither is offered here.
 */
export const MANAGE_ACTIONS = ['assign', 'assignRemove', 'forceUnlock', 'recover', 'reset', 'delete'] as const;
export type ManageAction = (typeof MANAGE_ACTIONS)[number];

/** The server action each one calls (POST reports/{id}/{action}). */
export const MANAGE_CALLS = {
  assign: 'assign',
  assignRemove: 'assign-remove',
  forceUnlock: 'force-unlock',
  recover: 'recovery',
  reset: 'reset',
  delete: 'delete',
} as const satisfies Record<ManageAction, ReportAction>;

export interface OfferedManageAction {
  action: ManageAction;
  /** The command that runs it (src/features/report/commands.ts). */
  commandId: `report.${ManageAction}`;
  /** i18n key of the menu item and the palette entry. */
  label: `report.actions.${ManageAction}`;
  /** What is asked before the call: an account to assign to, a confirmation, or nothing. */
  asks: 'account' | 'confirm' | null;
  /** It takes something away (the text, the report from the list, someone's lock): drawn in the danger colour. */
  danger: boolean;
}

const ASKS: Partial<Record<ManageAction, 'account' | 'confirm'>> = { assign: 'account', reset: 'confirm', delete: 'confirm' };
const DANGER: readonly ManageAction[] = ['forceUnlock', 'reset', 'delete'];

export function allowsManage(transitions: readonly ReportAction[], action: ManageAction): boolean {
  return transitions.includes(MANAGE_CALLS[action]);
}

/** The housekeeping actions `transitions` allow, in menu order (the ones that take something away last). */
export function offeredManageActions(transitions: readonly ReportAction[]): OfferedManageAction[] {
  return MANAGE_ACTIONS.filter((action) => allowsManage(transitions, action)).map((action) => ({
    action,
    commandId: `report.${action}`,
    label: `report.actions.${action}`,
    asks: ASKS[action] ?? null,
    danger: DANGER.includes(action),
  }));
}
