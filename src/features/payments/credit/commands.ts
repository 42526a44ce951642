import type { CreditLedgerKind } from '../../../../contract/payments';
import type { CommandSpec } from '@/lib/commands';

/** What the credit page's commands need. */
export interface CreditCtx {
  canRecharge: boolean;
  canAdjust: boolean;
  canExport: boolean;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  recharge(): void;
  adjust(): void;
  exportLedger(): void;
  /** null: every kind. */
  kind(kind: CreditLedgerKind | null): void;
  focusDates(): void;
  focusLedger(): void;
  page(step: 1 | -1): void;
  refresh(): void;
}

const label = (name: string) => `payments.credit.commands.${name}`;
const actions = 'payments.credit.commands.sections.actions';
const ledger = 'payments.credit.commands.sections.ledger';

function kindKey(digit: string, kind: CreditLedgerKind | null, name: string): CommandSpec<CreditCtx> {
  return { id: `payments.credit.kind.${name}`, label: label(`kind.${name}`), section: ledger, scope: 'credit', shortcut: digit, run: (c) => c.kind(kind) };
}

/**
 * The credit page (scope 'credit'): c recharges (packages → QR), a adjusts (group administrators), e exports the
 * ledger, 0–4 its kinds, d the date range, l the ledger, [ ] its pages, Shift+R reloads.
 */
export const creditCommands: readonly CommandSpec<CreditCtx>[] = [
  { id: 'payments.credit.recharge', label: label('recharge'), section: actions, scope: 'credit', shortcut: 'c', keywords: ['recharge', 'top up', '充值'], when: (c) => c.canRecharge, run: (c) => c.recharge() },
  { id: 'payments.credit.adjust', label: label('adjust'), section: actions, scope: 'credit', shortcut: 'a', keywords: ['adjust', '调整'], when: (c) => c.canAdjust, run: (c) => c.adjust() },
  { id: 'payments.credit.export', label: label('export'), section: actions, scope: 'credit', shortcut: 'e', keywords: ['excel', 'xlsx', '导出'], when: (c) => c.canExport, run: (c) => c.exportLedger() },
  { id: 'payments.credit.refresh', label: label('refresh'), section: actions, scope: 'credit', shortcut: 'Shift+R', keywords: ['reload'], run: (c) => c.refresh() },
  { id: 'payments.credit.dates', label: label('dates'), section: ledger, scope: 'credit', shortcut: 'd', keywords: ['date', '日期'], run: (c) => c.focusDates() },
  { id: 'payments.credit.ledger', label: label('ledger'), section: ledger, scope: 'credit', shortcut: 'l', keywords: ['ledger', '流水'], run: (c) => c.focusLedger() },
  { id: 'payments.credit.nextPage', label: label('nextPage'), section: ledger, scope: 'credit', shortcut: ']', when: (c) => c.hasNextPage, run: (c) => c.page(1) },
  { id: 'payments.credit.previousPage', label: label('previousPage'), section: ledger, scope: 'credit', shortcut: '[', when: (c) => c.hasPreviousPage, run: (c) => c.page(-1) },
  kindKey('0', null, 'all'),
  kindKey('1', 'recharge', 'recharge'),
  kindKey('2', 'charge', 'charge'),
  kindKey('3', 'refund', 'refund'),
  kindKey('4', 'adjust', 'adjust'),
];
