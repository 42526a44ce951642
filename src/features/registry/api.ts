import type { MyOrganization } from '../../../contract/accounts';
import type { Filter, Sort } from '../../../contract/common';
import type { ExamListItem } from '../../../contract/exams';
import type {
  PatientRecord, RegistryCreateInput, RegistryPage, RegistrySetup, RegistryRow, RegistryUpdateInput, Registration,
} from '../../../contract/registry';
import { http, type RequestOptions } from '@/lib/http';

/** The registry desk's calls (docs/api.md "Registry"). */
export const registryApi = {
  organisations: (options?: RequestOptions) => http.get<MyOrganization[]>('accounts/me/organizations', options),
  setup: (bucketId: number, options?: RequestOptions) => http.get<RegistrySetup>(`buckets/${bucketId}/registry/setup`, options),
  query: (bucketId: number, body: { filters: Filter[]; sorts?: Sort[]; skip: number; limit: number }, options?: RequestOptions) =>
    http.post<RegistryPage>(`buckets/${bucketId}/registry/query`, body, options),
  lookup: (bucketId: number, q: string, patientDob: string | null, options?: RequestOptions) =>
    http.post<PatientRecord[]>(`buckets/${bucketId}/registry/patients`, { q, patientDob }, options),
  create: (input: RegistryCreateInput) => http.post<Registration>('registry', input),
  update: (input: RegistryUpdateInput) => http.put<Registration>('registry', input),
  checkIn: (row: RegistryRow) => http.post<Registration>('exam/status', { examId: row.examId, status: 'Arrived', version: row.version }),
  perform: (row: RegistryRow) => http.post<Registration>('exam/status', { examId: row.examId, status: 'Performed', version: row.version }),
  revoke: (row: RegistryRow) => http.post<Registration>(`scheduled-exams/${row.examId}/revoke`, { version: row.version }),
  cancel: (row: RegistryRow, reason: string) => http.post<Registration>(`scheduled-exams/${row.examId}/cancel`, { version: row.version, reason }),
  remove: (row: RegistryRow) => http.delete(`scheduled-exams/${row.examId}`, { query: { version: row.version } }),
  /** Completed exams of the same patient a scheduled line could be matched to. */
  patientExams: (patientId: string, options?: RequestOptions) =>
    http.post<{ items: ExamListItem[]; total: number }>('exams/page-query', {
      filters: [{ field: 'patientId', operator: 'equal', values: [patientId] }], skip: 0, limit: 15, sorts: [{ field: 'examTime', direction: 'desc' }],
    }, options),
  match: (completedExamId: number, row: RegistryRow) => http.post<Registration>(`exams/${completedExamId}/match/${row.examId}`, { version: row.version }),
  export: (bucketId: number, filters: Filter[], lang: string) =>
    http.blob('POST', 'exports/schedules', { bucketId, filters, lang, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone }),
};
