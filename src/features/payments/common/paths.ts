/** The payment screens' addresses (areas §2). */
export const applyReportPath = (examId: number, type: 'expert' | 'remote' = 'expert') =>
  `/${examId}/apply-report${type === 'remote' ? '?type=remote' : ''}`;
export const orderPath = (examId: number, applicationId: number, type: 'expert' | 'remote' = 'expert') =>
  `/${examId}/apply-report/${applicationId}?type=${type}`;
export const chargePath = (applicationId: number) => `/charge/${applicationId}`;
export const creditPath = '/credit';

/** A positive integer id from an address part or a query value, or null. */
export function idFrom(value: string | null | undefined): number | null {
  if (value === null || value === undefined || !/^[1-9][0-9]{0,9}$/.test(value)) return null;
  const n = Number(value);
  return n <= 2_147_483_647 ? n : null;
}
