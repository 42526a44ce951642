import type { Page } from '../../../contract/common';
import type { ExamDetail, ExamListItem } from '../../../contract/exams';
import type {
  PrintData, ReportAction, ReportActionInput, ReportView, TemplateNode, TraceDiff, TraceSummary, TraceView,
} from '../../../contract/reports';
import { http, type RequestOptions } from '@/lib/http';

/**
 * The report workspace's calls (core §7 "Reports", "Exams"), typed by the contract. Nothing here decides:
 * the server answers every report with its `transitions` and `version`.
 */

export const reportApi = {
  detail: (id: number, options?: RequestOptions) => http.get<ReportView>(`reports/${id}/detail`, options),
  /** POST reports/{id}/{action}: lifecycle actions and the lock, each with the version the client last saw. */
  act: (id: number, action: ReportAction, body: ReportActionInput, options?: RequestOptions) =>
    http.post<ReportView>(`reports/${id}/${action}`, body, options),
  examReports: (examId: number, options?: RequestOptions) => http.get<Page<ReportView>>(`exams/${examId}/reports`, options),
  traces: (id: number, options?: RequestOptions) => http.get<Page<TraceSummary>>(`reports/${id}/report-trace`, options),
  trace: (id: number, traceId: number, options?: RequestOptions) => http.get<TraceView>(`reports/${id}/traces/${traceId}`, options),
  diff: (id: number, fromId: number, toId: number, options?: RequestOptions) =>
    http.get<TraceDiff>(`reports/${id}/diff-trace`, { ...options, query: { fromId, toId } }),
  printData: (id: number, options?: RequestOptions) => http.get<PrintData>(`reports/${id}/print-data`, options),
  templates: (bucketId: number, options?: RequestOptions) =>
    http.get<Page<TemplateNode>>('report-templates', { ...options, query: { bucketId } }),
  searchTemplates: (bucketId: number, q: string, options?: RequestOptions) =>
    http.get<Page<TemplateNode>>('report-templates/search', { ...options, query: { bucketId, q, limit: 50 } }),
};

export const examApi = {
  /** `reportId` null: the exam alone (the detail refuses a deleted report's id; it lists live reports only). */
  detail: (examId: number, reportId: number | null, options?: RequestOptions) =>
    http.get<ExamDetail>(`exams/${examId}/detail`, { ...options, query: { reportId: reportId ?? undefined } }),
  /** Core §2: the patient's other exams, latest 15. */
  past: (examId: number, options?: RequestOptions) => http.post<Page<ExamListItem>>(`exams/${examId}/past`, {}, options),
};
