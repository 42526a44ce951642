import type { MyOrganization } from '../../../contract/accounts';
import type { ExamListItem } from '../../../contract/exams';
import type { ReportView } from '../../../contract/reports';
import type { Publication, PublicationState } from '../../../contract/shares';
import { http, type RequestOptions } from '@/lib/http';

/** The publishing desk's calls (docs/api.md "Shares and patient-facing views"). */
export const publishApi = {
  organisations: (options?: RequestOptions) => http.get<MyOrganization[]>('accounts/me/organizations', options),
  list: (bucketId: number, skip: number, limit: number, options?: RequestOptions) =>
    http.get<{ items: Publication[]; total: number }>('report-publish/list', { ...options, query: { bucketId, skip, limit } }),
  state: (reportId: number, options?: RequestOptions) => http.get<PublicationState>(`reports/${reportId}/publish`, options),
  publish: (reportId: number) => http.post<{ reportId: number; publishedAt: string }>(`reports/${reportId}/publish`, {}),
  unpublish: (reportId: number) => http.delete(`reports/${reportId}/publish`),
  exam: (examId: number, options?: RequestOptions) => http.get<ExamListItem>(`exams/${examId}`, options),
  report: (reportId: number, options?: RequestOptions) => http.get<ReportView>(`reports/${reportId}/detail`, options),
};
