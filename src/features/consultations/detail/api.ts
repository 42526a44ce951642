import type {
  ConsultationAttachment, ConsultationCaseInput, ConsultationDetail, ConsultationListItem, ConsultationMembersInput,
  ConsultationPaymentInput, ConsultationPerson, ConsultationPrintData, ConsultationRatingInput, ConsultationResultInput,
  ConsultationTrace, ConsultationUpdateInput, RtcToken,
} from '../../../../contract/consultations';
import { CONSULTATION_STATUS } from '../../../../contract/consultations';
import { http, type RequestOptions } from '@/lib/http';
import { sendWithProgress } from '@/lib/http/form';

const base = (id: number) => `consultations/${id}`;

/** A list answered either bare or as a page ({ items }): the screens read both the same way. */
function items<T>(answer: T[] | { items: T[] }): T[] {
  return Array.isArray(answer) ? answer : answer.items;
}

/** The consultation detail's calls (docs/api.md "Consultations"); writes answer what they answer, the screen reloads. */
export const detailApi = {
  detail: (id: number, options?: RequestOptions) => http.get<ConsultationDetail>(base(id), options),
  related: (id: number, linkId: number, options?: RequestOptions) => http.get<ConsultationDetail>(`${base(id)}/related/${linkId}`, options),
  traces: async (id: number, options?: RequestOptions) => items(await http.get<ConsultationTrace[] | { items: ConsultationTrace[] }>(`${base(id)}/traces`, options)),
  people: async (bucketId: number, options?: RequestOptions) => items(await http.get<ConsultationPerson[] | { items: ConsultationPerson[] }>('consultations/people', { ...options, query: { bucketId } })),
  /** The link dialog's search: a number is an id, anything else is left to the caller's filter. */
  search: async (text: string, options?: RequestOptions) => {
    const id = /^\d{1,9}$/.test(text.trim()) ? Number(text.trim()) : null;
    const filters = id !== null ? [{ field: 'id', operator: 'equal' as const, values: [id] }] : [{ field: 'patientName', operator: 'like' as const, values: [text.trim()] }];
    return items(await http.post<ConsultationListItem[] | { items: ConsultationListItem[] }>('consultations/query', { filters, limit: 10 }, options));
  },
  update: (id: number, input: ConsultationUpdateInput) => http.patch<unknown>(base(id), input),
  schedule: (id: number, version: number, scheduledTime: string) =>
    http.post<unknown>(`${base(id)}/update-status`, { version, status: CONSULTATION_STATUS.scheduled, scheduledTime }),
  approve: (id: number, version: number) => http.post<unknown>(`${base(id)}/update-status`, { version, status: CONSULTATION_STATUS.completed }),
  cancel: (id: number, version: number, reason: string) => http.post<unknown>(`${base(id)}/cancel`, { version, reason }),
  results: (id: number, input: ConsultationResultInput) => http.put<unknown>(`${base(id)}/results`, input),
  suggest: (id: number, content: string) => http.post<unknown>(`${base(id)}/suggestion`, { content }),
  rate: (id: number, input: ConsultationRatingInput) => http.post<unknown>(`${base(id)}/rating`, input),
  payment: (id: number, input: ConsultationPaymentInput) => http.post<unknown>(`${base(id)}/payment-status`, input),
  members: (id: number, input: ConsultationMembersInput) => http.put<unknown>(`${base(id)}/members`, input),
  addCase: (id: number, input: ConsultationCaseInput) => http.post<unknown>(`${base(id)}/cases`, input),
  deleteCase: (id: number, caseId: number) => http.delete<unknown>(`${base(id)}/cases/${caseId}`),
  attachment: (id: number, attachmentId: number, options?: RequestOptions) => http.get<ConsultationAttachment>(`${base(id)}/attachments/${attachmentId}`, options),
  deleteAttachment: (id: number, attachmentId: number) => http.delete<unknown>(`${base(id)}/attachments/${attachmentId}`),
  /**
   * POST …/cases/{caseId}/attachments: one file as form data with the bearer, through XMLHttpRequest so the screen
   * can draw the bytes going out (the app's fetch client has no upload progress).
   */
  upload(id: number, caseId: number, file: File, onProgress: (sent: number) => void, signal?: AbortSignal): Promise<ConsultationAttachment> {
    const form = new FormData();
    form.append('file', file, file.name);
    const token = http.tokens.read()?.accessToken;
    return sendWithProgress<ConsultationAttachment>({
      method: 'POST', path: `${base(id)}/cases/${caseId}/attachments`, body: form, onProgress, signal,
      headers: token ? { Authorization: `Bearer ${token}` } : {},
    });
  },
  addExam: (id: number, examId: number) => http.post<unknown>(`${base(id)}/visit-exams`, { examId }),
  removeExam: (id: number, examId: number) => http.delete<unknown>(`${base(id)}/visit-exams/${examId}`),
  link: (id: number, linkedId: number) => http.post<unknown>(`${base(id)}/links`, { linkedId }),
  unlink: (id: number, linkedId: number) => http.delete<unknown>(`${base(id)}/links/${linkedId}`),
  printData: (id: number, options?: RequestOptions) => http.get<ConsultationPrintData>(`${base(id)}/print-data`, options),
  rtcToken: (id: number, options?: RequestOptions) => http.get<RtcToken>('consultations/rtc/access-token', { ...options, query: { room: `consultation-${id}` } }),
};
