import type { MyOrganization } from '../../../../contract/accounts';
import {
  CHARGE_AUTH_HEADER, IDEMPOTENCY_HEADER, type ChargeToken, type PlanCheck, type ReportOrderDetail,
} from '../../../../contract/payments';
import { http, type RequestOptions } from '@/lib/http';

const keyed = (idempotencyKey: string, extra: Record<string, string> = {}): RequestOptions => ({ headers: { [IDEMPOTENCY_HEADER]: idempotencyKey, ...extra } });

/** The order page's calls: the request detail, paying by credit or plan, withdrawing (areas §7). */
export const orderApi = {
  detail: (id: number, options?: RequestOptions) => http.get<ReportOrderDetail>(`report-requests/${id}`, options),
  planCheck: (orderId: number, options?: RequestOptions) => http.get<PlanCheck>('plans/check', { ...options, query: { orderId } }),
  /** The account's password, checked like a login; answers a short-lived charge token. */
  createToken: (groupId: number, password: string) => http.post<ChargeToken>('credits/create-token', { groupId, password }),
  creditCharge: (orderId: number, chargeToken: string, idempotencyKey: string) =>
    http.post<ReportOrderDetail | undefined>('credits/charge', { orderId }, keyed(idempotencyKey, { [CHARGE_AUTH_HEADER]: `Bearer ${chargeToken}` })),
  planUse: (orderId: number, idempotencyKey: string) => http.post<ReportOrderDetail | undefined>('plans/use', { orderId }, keyed(idempotencyKey)),
  withdraw: (id: number, idempotencyKey: string) => http.delete<ReportOrderDetail>(`report-requests/${id}`, keyed(idempotencyKey)),
  /** The applicant organisation's group (the credit calls take it). */
  organisations: () => http.get<MyOrganization[]>('accounts/me/organizations'),
};
