import type { MyOrganization } from '../../../contract/accounts';
import type { Filter, Sort } from '../../../contract/common';
import type {
  ConsultationCreateInput, ConsultationDetail, ConsultationExportInput, ConsultationListItem, ConsultationPage, ConsultationPerson, ConsultationTargets,
} from '../../../contract/consultations';
import type { ExamDetail } from '../../../contract/exams';
import type { ReportView } from '../../../contract/reports';
import { currentLanguage } from '@/lib/i18n';
import { http, type RequestOptions } from '@/lib/http';
import { registerModuleReset } from '@/lib/session';

/**
 * A list row as the screen reads it: the contract's list item (its target name and payment status are optional),
 * with the target's id when the server sends it, to tell the target from the other joined organisations.
 */
export type ConsultationRow = ConsultationListItem & Partial<Pick<ConsultationDetail, 'targetBucketId'>>;
export type ConsultationRowPage = Omit<ConsultationPage, 'items'> & { items: ConsultationRow[] };

/** The consultation list's and the create screen's calls (areas §7 "Consultations"). */
export const consultationApi = {
  page: (body: { filters: Filter[]; sorts?: Sort[]; skip: number; limit: number }, options?: RequestOptions) =>
    http.post<ConsultationRowPage>('consultations/query-page', body, options),
  /** Column names in the screen's language, times in the browser's zone (as the worklist's export). */
  export: (filters: Filter[]) => http.blob('POST', 'consultations/export', {
    filters, sorts: [], lang: currentLanguage(), timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  } satisfies ConsultationExportInput),
  targets: (examId: number, options?: RequestOptions) => http.get<ConsultationTargets>('consultations/targets', { ...options, query: { examId } }),
  people: (bucketId: number, options?: RequestOptions) => http.get<ConsultationPerson[]>('consultations/people', { ...options, query: { bucketId } }),
  create: (input: ConsultationCreateInput) => http.post<ConsultationDetail>('consultations', input),
  exam: (examId: number, reportId: number | null, options?: RequestOptions) =>
    http.get<ExamDetail>(`exams/${examId}/detail`, { ...options, query: { reportId: reportId ?? undefined } }),
  report: (reportId: number, options?: RequestOptions) => http.get<ReportView>(`reports/${reportId}/detail`, options),
};

// The account's organisations with their groups, asked once per session: the entry commands ask on every screen.
let organisations: Promise<MyOrganization[]> | null = null;
registerModuleReset(() => {
  organisations = null;
});

export function myOrganisations(): Promise<MyOrganization[]> {
  organisations ??= http.get<MyOrganization[]>('accounts/me/organizations').catch((error: unknown) => {
    organisations = null;
    throw error;
  });
  return organisations;
}
