import type { ExamDetail } from '../../../../contract/exams';
import {
  IDEMPOTENCY_HEADER, type ApplyInput, type ExpertProducts, type ReportOrderDetail, type ReportRequestType,
} from '../../../../contract/payments';
import { http, type RequestOptions } from '@/lib/http';

/** The apply screen's calls (areas §7 "Expert and remote report requests and payments"). */
export const applyApi = {
  exam: (examId: number, options?: RequestOptions) => http.get<ExamDetail>(`exams/${examId}/detail`, options),
  products: (examId: number, type: ReportRequestType, options?: RequestOptions) =>
    http.get<ExpertProducts>('report-requests/products', { ...options, query: { examId, type } }),
  /** POST report-requests/apply; the key is one attempt's, so a repeat after a lost answer is not a second request. */
  apply: (input: ApplyInput, idempotencyKey: string) =>
    http.post<ReportOrderDetail>('report-requests/apply', input, { headers: { [IDEMPOTENCY_HEADER]: idempotencyKey } }),
};
