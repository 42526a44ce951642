import type { ChargeOrderView, ChargePackage, PaymentStatusView, ReportOrderDetail } from '../../../../contract/payments';
import { http, type RequestOptions } from '@/lib/http';

/** The charge page's calls (areas §7: packages, charge/{id}/detail, pre-paid-order, payment-status). */
export const chargeApi = {
  packages: (orderId: number, options?: RequestOptions) => http.get<ChargePackage[]>('packages/query', { ...options, query: { orderId } }),
  detail: (id: number, options?: RequestOptions) => http.get<{ order: ReportOrderDetail; charge: ChargeOrderView | null }>(`charge/${id}/detail`, options),
  /** The live code, or a new one (refresh: close the live one first). */
  prePaid: (id: number, packageId: number, refresh: boolean, options?: RequestOptions) =>
    http.get<ChargeOrderView>(`charge/${id}/pre-paid-order`, { ...options, query: { packageId, refresh: refresh ? '1' : undefined } }),
  status: (id: number, options?: RequestOptions) => http.get<PaymentStatusView>(`charge/${id}/payment-status`, options),
};
