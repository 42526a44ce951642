import type { CommandSpec } from '@/lib/commands';
import type { ManageAction, WorkspaceAction } from '../../../machines/reportModel/actions';

/** What the report commands need from the workspace; the workspace builds it every render. */
export interface ReportCommandContext {
  /** The action is in the report's `transitions` and nothing else is under way. */
  can(action: WorkspaceAction): boolean;
  run(action: WorkspaceAction): void;
  /** A housekeeping action (assign, reset, delete...) is in the report's `transitions` and nothing else is under way. */
  canManage(action: ManageAction): boolean;
  /** Runs it, through its dialog or confirmation where it has one. */
  manage(action: ManageAction): void;
  /** Next (+1) or previous (-1) case of the worklist's current view. */
  move(step: 1 | -1): void;
  back(): void;
  canInsertTemplate: boolean;
  insertTemplate(): void;
  canWrite: boolean;
  focusField(field: 'finding' | 'diagnosis'): void;
  canShowHistory: boolean;
  showHistory(): void;
  /** The report is approved and the account may publish in its organisation (order_report_publish). */
  canPublish: boolean;
  /** Opens the report's publishing page (/report-publish/detail). */
  openPublish(): void;
  /** The account may list the report's attachments (it may read the report, and the report is not deleted). */
  canShowAttachments: boolean;
  /** Shows the side tab "Attachments" with the focus on "Add files" (or on the panel, for those who only look). */
  showAttachments(): void;
  /** The account may hand out share links of this report (report_print in its organisation). */
  canShare: boolean;
  /** Shows the side tab "Share" with the focus on its first field. */
  openShare(): void;
  /** The images beside the report can take the keyboard (the viewer's keys then act on them). */
  canFocusViewer: boolean;
  focusViewer(): void;
}

type Spec = CommandSpec<ReportCommandContext>;

function action(name: WorkspaceAction, shortcut?: string, keywords?: readonly string[]): Spec {
  return {
    id: `report.${name}`,
    label: `report.actions.${name}`,
    section: 'report.commands.sections.actions',
    scope: 'editor',
    shortcut,
    keywords,
    when: (ctx) => ctx.can(name),
    run: (ctx) => ctx.run(name),
  };
}

/** Housekeeping: listed under its own heading; shortcuts only where no browser or editor key is in the way. */
function manage(name: ManageAction, keywords: readonly string[], shortcut?: string): Spec {
  return {
    id: `report.${name}`,
    label: `report.actions.${name}`,
    section: 'report.commands.sections.manage',
    scope: 'editor',
    shortcut,
    keywords,
    when: (ctx) => ctx.canManage(name),
    run: (ctx) => ctx.manage(name),
  };
}

/**
 * The report workspace's commands (scope 'editor'). Every action is a command: the buttons print these
 * shortcuts, the palette lists them, and `when()` offers only what the report's `transitions` allow.
 * All but Esc are modified keys, so they work while typing in the editors; Esc is a plain key (the editor's
 * own Esc leaves the editor first, a second Esc goes back).
 */
export const reportCommands: readonly Spec[] = [
  action('save', '$mod+s'),
  action('submit', '$mod+Enter'),
  action('approve', '$mod+Shift+a'),
  action('reject', '$mod+Shift+r'),
  action('advise'),
  action('cancelSubmit'),
  action('recall'),
  action('print', '$mod+p'),
  // Ctrl/Cmd+Shift+E: free in the browsers and in the editor (no single letters here: the editors take them).
  manage('assign', ['assign', 'assignee', 'hand over'], '$mod+Shift+e'),
  // The others are palette only: each takes something away or is rare, and none may be one stray key away.
  manage('assignRemove', ['unassign', 'assignee']),
  manage('forceUnlock', ['lock', 'unlock']),
  manage('recover', ['recovery', 'restore', 'undelete']),
  manage('reset', ['clear', 'empty', 'blank']),
  manage('delete', ['remove', 'discard']),
  {
    id: 'report.nextCase',
    label: 'report.commands.nextCase',
    section: 'report.commands.sections.cases',
    scope: 'editor',
    shortcut: 'Alt+ArrowDown',
    run: (ctx) => ctx.move(1),
  },
  {
    id: 'report.previousCase',
    label: 'report.commands.previousCase',
    section: 'report.commands.sections.cases',
    scope: 'editor',
    shortcut: 'Alt+ArrowUp',
    run: (ctx) => ctx.move(-1),
  },
  {
    id: 'report.back',
    label: 'report.commands.back',
    section: 'report.commands.sections.cases',
    scope: 'editor',
    shortcut: 'Escape',
    run: (ctx) => ctx.back(),
  },
  {
    id: 'report.focusViewer',
    label: 'report.commands.focusViewer',
    section: 'report.commands.sections.cases',
    scope: 'editor',
    // By the key's place (KeyI), so it also works on a Mac, where Option+I types a character; Alt+I is free in the
    // browsers and in the editor.
    shortcut: 'Alt+KeyI',
    keywords: ['images', 'viewer', 'image', '影像', '图像'],
    when: (ctx) => ctx.canFocusViewer,
    run: (ctx) => ctx.focusViewer(),
  },
  {
    id: 'report.insertTemplate',
    label: 'report.commands.insertTemplate',
    section: 'report.commands.sections.writing',
    scope: 'editor',
    keywords: ['/', 'template'],
    when: (ctx) => ctx.canInsertTemplate,
    run: (ctx) => ctx.insertTemplate(),
  },
  {
    id: 'report.focusFinding',
    label: 'report.commands.focusFinding',
    section: 'report.commands.sections.writing',
    scope: 'editor',
    when: (ctx) => ctx.canWrite,
    run: (ctx) => ctx.focusField('finding'),
  },
  {
    id: 'report.focusDiagnosis',
    label: 'report.commands.focusDiagnosis',
    section: 'report.commands.sections.writing',
    scope: 'editor',
    when: (ctx) => ctx.canWrite,
    run: (ctx) => ctx.focusField('diagnosis'),
  },
  {
    id: 'report.history',
    label: 'report.commands.history',
    section: 'report.commands.sections.writing',
    scope: 'editor',
    when: (ctx) => ctx.canShowHistory,
    run: (ctx) => ctx.showHistory(),
  },
  {
    // Palette only: putting a report in front of patients is never one stray key away.
    id: 'report.publish',
    label: 'report.commands.publish',
    section: 'report.commands.sections.actions',
    scope: 'editor',
    keywords: ['publish', 'patient', '/report-publish'],
    when: (ctx) => ctx.canPublish,
    run: (ctx) => ctx.openPublish(),
  },
  {
    id: 'report.attachments',
    label: 'report.commands.attachments',
    section: 'report.commands.sections.writing',
    scope: 'editor',
    keywords: ['attachment', 'file', 'upload', 'PDF', 'scan', 'upload code'],
    when: (ctx) => ctx.canShowAttachments,
    run: (ctx) => ctx.showAttachments(),
  },
  {
    // Palette only, as publishing: a link that lets anyone read the report is made on purpose.
    id: 'report.share',
    label: 'report.commands.share',
    section: 'report.commands.sections.actions',
    scope: 'editor',
    keywords: ['share', 'link', 'QR', 'patient', '/reports/s'],
    when: (ctx) => ctx.canShare,
    run: (ctx) => ctx.openShare(),
  },
];

/** The shortcut of a report command, for the button that runs the same thing. */
export function shortcutOf(commandId: string): string | undefined {
  return reportCommands.find((c) => c.id === commandId)?.shortcut;
}

/** The print view's commands (scope 'print'). */
export interface PrintCommandContext {
  canPrint: boolean;
  print(): void;
  back(): void;
}

export const printCommands: readonly CommandSpec<PrintCommandContext>[] = [
  {
    id: 'print.print',
    label: 'print.commands.print',
    scope: 'print',
    shortcut: '$mod+p',
    when: (ctx) => ctx.canPrint,
    run: (ctx) => ctx.print(),
  },
  {
    id: 'print.back',
    label: 'print.commands.back',
    scope: 'print',
    shortcut: 'Escape',
    run: (ctx) => ctx.back(),
  },
];
