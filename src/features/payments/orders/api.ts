import type { Filter, Page } from '../../../../contract/common';
import { IDEMPOTENCY_HEADER, type RefundInput, type ReportOrder, type ReportOrderDetail } from '../../../../contract/payments';
import { currentLanguage } from '@/lib/i18n';
import { http, type RequestOptions } from '@/lib/http';

/** The order list's and the order detail's calls (areas §7 "payments page-query, refund, export-excel", "orders"). */
export const ordersApi = {
  page: (body: { filters: Filter[]; skip: number; limit: number }, options?: RequestOptions) =>
    http.post<Page<ReportOrder>>('payments/page-query', { ...body, sorts: [{ field: 'id', direction: 'desc' }] }, options),
  detail: (id: number, options?: RequestOptions) => http.get<ReportOrderDetail>(`orders/${id}`, options),
  /** Column names in the screen's language, times in the browser's zone (as the worklist's export). */
  export: (filters: Filter[]) => http.blob('POST', 'payments/export-excel', {
    filters, sorts: [], lang: currentLanguage(), timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  }),
  /** Full, to the original channel; one key per attempt so a resend is the same refund, never a second one. */
  refund: (id: number, input: RefundInput, idempotencyKey: string) =>
    http.post<ReportOrderDetail>(`payments/${id}/refund`, input, { headers: { [IDEMPOTENCY_HEADER]: idempotencyKey } }),
};
