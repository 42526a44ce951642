import type { CommandSpec } from '@/lib/commands';

/** The entry on an exam (report workspace, worklist row): ask an expert, or request the remote report. */
export interface ReportRequestEntryCtx {
  canExpert: boolean;
  canRemote: boolean;
  askExpert(): void;
  askRemote(): void;
}

/** The apply screen (scope 'payments'). */
export interface ApplyCtx {
  rows: number;
  busy: boolean;
  move(step: 1 | -1): void;
  toggle(): void;
  agree(): void;
  submit(): void;
}

/** The order page (scope 'payments'). */
export interface OrderCtx {
  canPay: boolean;
  canCredit: boolean;
  canPlan: boolean;
  canWithdraw: boolean;
  payQr(): void;
  payCredit(): void;
  payPlan(): void;
  withdraw(): void;
}

/** The charge page (scope 'payments'). */
export interface ChargeCtx {
  canRefresh: boolean;
  refresh(): void;
  back(): void;
}

const label = (name: string) => `payments.common.commands.${name}`;
const keywords = ['expert', 'report', '专家', '报告', 'payment', '支付'] as const;

/** From the report workspace: a chord, since the editor has the plain keys (as the consultation's Alt+Shift+C). */
export const reportRequestEditorCommands: readonly CommandSpec<ReportRequestEntryCtx>[] = [
  { id: 'payments.askExpert.editor', label: label('askExpert'), scope: 'editor', shortcut: 'Alt+Shift+KeyE', keywords, when: (c) => c.canExpert, run: (c) => c.askExpert() },
  { id: 'payments.askRemote.editor', label: label('askRemote'), scope: 'editor', keywords: ['remote', '远程'], when: (c) => c.canRemote, run: (c) => c.askRemote() },
];

/** …and from the worklist, for the focused exam. */
export const reportRequestWorklistCommands: readonly CommandSpec<ReportRequestEntryCtx>[] = [
  { id: 'payments.askExpert.worklist', label: label('askExpert'), scope: 'worklist', shortcut: 'Shift+E', keywords, when: (c) => c.canExpert, run: (c) => c.askExpert() },
  { id: 'payments.askRemote.worklist', label: label('askRemote'), scope: 'worklist', keywords: ['remote', '远程'], when: (c) => c.canRemote, run: (c) => c.askRemote() },
];

/**
 * The apply screen: ↑/↓ move through the organisations, Space chooses, A agrees to the terms, Ctrl+Enter submits.
 * The list keys are the screen's own (the list has the focus); these make them known to the palette and the sheet.
 */
export const applyCommands: readonly CommandSpec<ApplyCtx>[] = [
  { id: 'payments.apply.down', label: label('down'), scope: 'payments', shortcut: 'ArrowDown', repeat: true, when: (c) => c.rows > 0, run: (c) => c.move(1) },
  { id: 'payments.apply.up', label: label('up'), scope: 'payments', shortcut: 'ArrowUp', repeat: true, when: (c) => c.rows > 0, run: (c) => c.move(-1) },
  { id: 'payments.apply.toggle', label: label('toggle'), scope: 'payments', shortcut: 'Space', when: (c) => c.rows > 0 && !c.busy, run: (c) => c.toggle() },
  { id: 'payments.apply.agree', label: label('agree'), scope: 'payments', shortcut: 'a', keywords: ['terms', '条款'], when: (c) => !c.busy, run: (c) => c.agree() },
  { id: 'payments.apply.submit', label: label('submit'), scope: 'payments', shortcut: '$mod+Enter', when: (c) => !c.busy, run: (c) => c.submit() },
];

/** The order page: Q pays by QR, B from credit, P with a plan, W withdraws (each with its confirm). */
export const orderCommands: readonly CommandSpec<OrderCtx>[] = [
  { id: 'payments.order.payQr', label: label('payQr'), scope: 'payments', shortcut: 'q', keywords: ['weixin', 'wechat', '微信'], when: (c) => c.canPay, run: (c) => c.payQr() },
  { id: 'payments.order.payCredit', label: label('payCredit'), scope: 'payments', shortcut: 'b', keywords: ['balance', '余额'], when: (c) => c.canCredit, run: (c) => c.payCredit() },
  { id: 'payments.order.payPlan', label: label('payPlan'), scope: 'payments', shortcut: 'p', keywords: ['plan', '套餐'], when: (c) => c.canPlan, run: (c) => c.payPlan() },
  { id: 'payments.order.withdraw', label: label('withdraw'), scope: 'payments', shortcut: 'w', keywords: ['cancel', '撤回'], when: (c) => c.canWithdraw, run: (c) => c.withdraw() },
];

/** The charge page: R asks for a new code once the old one expired, Esc goes back to the request. */
export const chargeCommands: readonly CommandSpec<ChargeCtx>[] = [
  { id: 'payments.charge.refresh', label: label('refresh'), scope: 'payments', shortcut: 'r', when: (c) => c.canRefresh, run: (c) => c.refresh() },
  { id: 'payments.charge.back', label: label('back'), scope: 'payments', shortcut: 'Escape', run: (c) => c.back() },
];
