import { and, count, eq, sql, type SQL } from 'drizzle-orm';
import type { Filter, Sort } from '../../../contract/common';
import type { Language } from '../../../contract/constants';
import { CREDIT_FILTER_FIELDS, CREDIT_LEDGER_KINDS, formatYuan, type CreditLedgerEntry, type CreditLedgerKind } from '../../../contract/payments';
import type { Db } from '../../db/client';
import { accounts, creditLedger, reportOrders } from '../../db/schema';
import { sheetColumns, wordTable, words } from '../../http/sheetColumns';
import { writeWorkbook } from '../../http/workbook';
import { compileListFilters, oneOf, orderOf, valueKinds, type ListOrder, type ListQuery } from '../../http/pageQuery';

/** A group's credit ledger on the shared page-query engine (the whitelist is contract/payments.ts), and its export. */

type CreditFilterField = keyof typeof CREDIT_FILTER_FIELDS;

const LIST: ListQuery<CreditFilterField> = {
  resource: 'credits',
  fields: CREDIT_FILTER_FIELDS,
  kinds: { enum: oneOf(CREDIT_LEDGER_KINDS), time: valueKinds.time, int: valueKinds.int },
  columns: { kind: creditLedger.kind, created: creditLedger.created, orderId: creditLedger.orderId },
};

const ORDER: ListOrder<'id' | 'created'> = {
  resource: 'credits',
  fields: ['id', 'created'],
  columns: { id: creditLedger.id, created: creditLedger.created },
  defaultSort: { field: 'id', direction: 'desc' },
  tieBreak: 'id',
};

export function ledgerWhere(groupId: number, filters: readonly Filter[]): SQL {
  return and(eq(creditLedger.groupId, groupId), ...compileListFilters(LIST, filters))!;
}

export async function ledgerPage(db: Db, where: SQL, sorts: readonly Sort[], limit: number, skip: number): Promise<{ items: CreditLedgerEntry[]; total: number }> {
  const [rows, [total]] = await Promise.all([
    db.select({ l: creditLedger, requestNo: reportOrders.requestNo, accountName: accounts.name }).from(creditLedger)
      .leftJoin(reportOrders, eq(reportOrders.id, creditLedger.orderId)).leftJoin(accounts, eq(accounts.id, creditLedger.accountId))
      .where(where).orderBy(...orderOf(ORDER, sorts)).limit(limit).offset(skip),
    db.select({ n: count() }).from(creditLedger).where(where),
  ]);
  return {
    total: Number(total?.n ?? 0),
    items: rows.map(({ l, requestNo, accountName }) => ({
      id: l.id, kind: l.kind as CreditLedgerKind, amountFen: l.amountFen, balanceAfterFen: l.balanceAfterFen, orderId: l.orderId,
      requestNo: requestNo ?? null, accountName: accountName ?? null, note: l.note, created: l.created.toISOString(),
    })),
  };
}

export async function ledgerCount(db: Db, where: SQL): Promise<number> {
  const [row] = await db.select({ n: count() }).from(creditLedger).where(where);
  return Number(row?.n ?? 0);
}

/** Sums by kind over an optional time range (integer fen: SQL sums of integers, no floats). */
export async function ledgerSums(db: Db, groupId: number, from?: Date, to?: Date): Promise<Record<CreditLedgerKind, number>> {
  const rows = await db.select({ kind: creditLedger.kind, sum: sql<string>`coalesce(sum(${creditLedger.amountFen}), 0)` }).from(creditLedger)
    .where(and(eq(creditLedger.groupId, groupId), from ? sql`${creditLedger.created} >= ${from.toISOString()}` : undefined, to ? sql`${creditLedger.created} <= ${to.toISOString()}` : undefined))
    .groupBy(creditLedger.kind);
  const out: Record<CreditLedgerKind, number> = { recharge: 0, charge: 0, refund: 0, adjust: 0 };
  for (const r of rows) out[r.kind as CreditLedgerKind] = Number(r.sum);
  return out;
}

const KIND = wordTable<CreditLedgerKind>({
  recharge: ['充值', 'Recharge', 'སྣོན་འཇུག'],
  charge: ['扣费', 'Charge', 'རིན་བཅད།'],
  refund: ['退款', 'Refund', 'ཕྱིར་སློག'],
  adjust: ['调整', 'Adjustment', 'སྙོམ་སྒྲིག'],
});
const COLUMNS = sheetColumns<CreditLedgerEntry>([
  ['id', 8, ['编号', 'No.', 'ཨང་།'], (r) => r.id],
  ['created', 18, ['时间', 'Time', 'དུས་ཚོད།'], (r) => new Date(r.created)],
  ['kind', 10, ['类型', 'Kind', 'རིགས།'], (r, l) => KIND[r.kind][l]],
  ['amount', 12, ['金额（元）', 'Amount (yuan)', 'དངུལ་འབོར། (ཡོན།)'], (r) => formatYuan(r.amountFen)],
  ['balance', 12, ['余额（元）', 'Balance (yuan)', 'ལྷག་མ། (ཡོན།)'], (r) => formatYuan(r.balanceAfterFen)],
  ['requestNo', 20, ['申请单号', 'Request no.', 'ཞུ་ཡིག་ཨང་།'], (r) => r.requestNo ?? ''],
  ['account', 14, ['操作人', 'By', 'བཀོལ་མཁན།'], (r) => r.accountName ?? ''],
  ['note', 30, ['备注', 'Note', 'མཆན།'], (r) => r.note ?? ''],
]);
const SHEET = words(['余额明细', 'Credit ledger', 'ལྷག་འབོར་ཐོ།']);

/** The ledger as an .xlsx workbook: amounts as yuan text from integer fen (exact), times in the reader's zone. */
export function ledgerWorkbook(rows: readonly CreditLedgerEntry[], lang: Language, timeZone: string): Promise<Buffer> {
  return writeWorkbook({ sheet: SHEET, columns: COLUMNS, rows, lang, timeZone });
}
