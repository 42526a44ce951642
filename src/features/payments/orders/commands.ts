import type { PaymentStatus } from '../../../../contract/payments';
import type { CommandSpec } from '@/lib/commands';

/** What the order list's commands need; the screen builds it every render (commands read the latest). */
export interface OrderListCtx {
  rows: number;
  hasActiveRow: boolean;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  canExport: boolean;
  canRefund: boolean;
  move(step: 1 | -1): void;
  open(): void;
  page(step: 1 | -1): void;
  focusSearch(): void;
  focusDates(): void;
  /** null: every payment status. */
  status(status: PaymentStatus | null): void;
  /** all → out → in → all. */
  cycleSide(): void;
  /** all → expert → remote → all. */
  cycleType(): void;
  refresh(): void;
  exportList(): void;
  refund(): void;
}

/** The order detail page. */
export interface OrderDetailCtx {
  canRefund: boolean;
  refund(): void;
  back(): void;
  refresh(): void;
}

const label = (name: string) => `payments.orders.commands.${name}`;
const nav = 'payments.orders.commands.sections.navigate';
const filters = 'payments.orders.commands.sections.filters';
const actions = 'payments.orders.commands.sections.actions';

type ListSpec = CommandSpec<OrderListCtx>;

function statusKey(digit: string, status: PaymentStatus | null, name: string): ListSpec {
  return { id: `payments.orders.status.${name}`, label: label(`status.${name}`), section: filters, scope: 'orders', shortcut: digit, run: (c) => c.status(status) };
}

/**
 * The order list (scope 'orders'), keys as on the consultation list: j/k or arrows move, Enter opens, / searches,
 * [ and ] turn pages, 0 every payment status and 1–4 one, s the side (sent / received), t the type, d the dates,
 * e exports, r refunds the order in hand (with a confirm that asks the reason).
 */
export const orderListCommands: readonly ListSpec[] = [
  { id: 'payments.orders.next', label: label('next'), section: nav, scope: 'orders', shortcut: 'j', repeat: true, when: (c) => c.rows > 0, run: (c) => c.move(1) },
  { id: 'payments.orders.previous', label: label('previous'), section: nav, scope: 'orders', shortcut: 'k', repeat: true, when: (c) => c.rows > 0, run: (c) => c.move(-1) },
  { id: 'payments.orders.nextArrow', label: label('next'), section: nav, scope: 'orders', shortcut: 'ArrowDown', repeat: true, when: (c) => c.rows > 0, run: (c) => c.move(1) },
  { id: 'payments.orders.previousArrow', label: label('previous'), section: nav, scope: 'orders', shortcut: 'ArrowUp', repeat: true, when: (c) => c.rows > 0, run: (c) => c.move(-1) },
  { id: 'payments.orders.open', label: label('open'), section: nav, scope: 'orders', shortcut: 'Enter', when: (c) => c.hasActiveRow, run: (c) => c.open() },
  { id: 'payments.orders.search', label: label('search'), section: nav, scope: 'orders', shortcut: '/', run: (c) => c.focusSearch() },
  { id: 'payments.orders.nextPage', label: label('nextPage'), section: nav, scope: 'orders', shortcut: ']', when: (c) => c.hasNextPage, run: (c) => c.page(1) },
  { id: 'payments.orders.previousPage', label: label('previousPage'), section: nav, scope: 'orders', shortcut: '[', when: (c) => c.hasPreviousPage, run: (c) => c.page(-1) },
  { id: 'payments.orders.refresh', label: label('refresh'), section: nav, scope: 'orders', shortcut: 'Shift+R', keywords: ['reload'], run: (c) => c.refresh() },
  statusKey('0', null, 'all'),
  statusKey('1', 0, 'unpaid'),
  statusKey('2', 1, 'paid'),
  statusKey('3', 2, 'refunding'),
  statusKey('4', 3, 'refunded'),
  { id: 'payments.orders.side', label: label('side'), section: filters, scope: 'orders', shortcut: 's', keywords: ['in', 'out', '发出', '收到'], run: (c) => c.cycleSide() },
  { id: 'payments.orders.type', label: label('type'), section: filters, scope: 'orders', shortcut: 't', keywords: ['expert', 'remote', '专家', '远程'], run: (c) => c.cycleType() },
  { id: 'payments.orders.dates', label: label('dates'), section: filters, scope: 'orders', shortcut: 'd', keywords: ['date', '日期'], run: (c) => c.focusDates() },
  { id: 'payments.orders.export', label: label('export'), section: actions, scope: 'orders', shortcut: 'e', keywords: ['excel', 'xlsx', '导出'], when: (c) => c.canExport, run: (c) => c.exportList() },
  { id: 'payments.orders.refund', label: label('refund'), section: actions, scope: 'orders', shortcut: 'r', keywords: ['refund', '退款'], when: (c) => c.canRefund, run: (c) => c.refund() },
];

/** The order detail (scope 'orderDetail'): r refunds, Esc goes back to the list. */
export const orderDetailCommands: readonly CommandSpec<OrderDetailCtx>[] = [
  { id: 'payments.orders.detail.refund', label: label('refund'), section: actions, scope: 'orderDetail', shortcut: 'r', keywords: ['refund', '退款'], when: (c) => c.canRefund, run: (c) => c.refund() },
  { id: 'payments.orders.detail.back', label: label('back'), section: nav, scope: 'orderDetail', shortcut: 'Escape', run: (c) => c.back() },
  { id: 'payments.orders.detail.refresh', label: label('refresh'), section: nav, scope: 'orderDetail', shortcut: 'Shift+R', run: (c) => c.refresh() },
];
