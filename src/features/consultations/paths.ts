/** The consultation area's addresses (areas §2). */
export const consultationListPath = '/consultations';
export const myConsultationsPath = '/consultations/my';
export const consultationPath = (id: number) => `/consultations/${id}`;
export const createConsultationPath = (examId: number, reportId: number | null) =>
  `/consultations/add?examId=${examId}${reportId !== null ? `&reportId=${reportId}` : ''}`;

/** A positive integer id from a query value, or null. */
export function idFrom(value: string | null): number | null {
  if (value === null || !/^[1-9][0-9]{0,9}$/.test(value)) return null;
  const n = Number(value);
  return n <= 2_147_483_647 ? n : null;
}
