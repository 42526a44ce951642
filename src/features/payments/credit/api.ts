import type { Filter, Page } from '../../../../contract/common';
import {
  IDEMPOTENCY_HEADER, type ChargeOrderView, type ChargePackage, type CreditLedgerEntry, type CreditSums, type GroupCredit,
} from '../../../../contract/payments';
import { currentLanguage } from '@/lib/i18n';
import { http, type RequestOptions } from '@/lib/http';

/** The credit page's calls (areas §7 "Credits"). */
export const creditApi = {
  balance: (groupId: number, options?: RequestOptions) => http.get<GroupCredit>('credits/group-credit', { ...options, query: { groupId } }),
  sums: (groupId: number, range: { from?: string; to?: string }, options?: RequestOptions) =>
    http.get<CreditSums>('credits/sums', { ...options, query: { groupId, ...range } }),
  ledger: (body: { groupId: number; filters: Filter[]; skip: number; limit: number }, options?: RequestOptions) =>
    http.post<Page<CreditLedgerEntry>>('credits/page-query', { ...body, sorts: [{ field: 'id', direction: 'desc' }] }, options),
  export: (groupId: number, filters: Filter[]) => http.blob('POST', 'credits/export', {
    groupId, filters, sorts: [], lang: currentLanguage(), timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  }),
  packages: (options?: RequestOptions) => http.get<ChargePackage[]>('packages/query', { ...options, query: { kind: 'credit' } }),
  recharge: (groupId: number, packageId: number, idempotencyKey: string) =>
    http.post<ChargeOrderView>('credits/recharge', { groupId, packageId }, { headers: { [IDEMPOTENCY_HEADER]: idempotencyKey } }),
  /** Cheap: the dialog polls it every 2 s while the code is shown. */
  rechargeStatus: (chargeId: number, options?: RequestOptions) => http.get<ChargeOrderView>(`credits/recharge/${chargeId}`, options),
  /** "I have paid": asks the channel now instead of waiting for its notification. */
  confirm: (chargeId: number) => http.post<ChargeOrderView>(`credits/recharge/${chargeId}/confirm`),
  adjust: (input: { groupId: number; amountFen: number; note: string }) => http.post<GroupCredit>('credits/adjust', input),
};
