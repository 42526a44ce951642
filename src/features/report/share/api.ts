import type { ShareLink } from '../../../../contract/shares';
import { http, type RequestOptions } from '@/lib/http';

/** Report share links (docs/api.md "Shares"): made, listed and revoked with report_print in the report's organisation. */
export const shareApi = {
  list: (reportId: number, options?: RequestOptions) => http.get<ShareLink[]>(`reports/${reportId}/shares`, options),
  create: (reportId: number, ttlDays: number) => http.post<ShareLink>(`reports/${reportId}/share`, { ttlDays }),
  revoke: (reportId: number, link: string) => http.post<void>(`reports/${reportId}/shares/${encodeURIComponent(link)}/revoke`, {}),
};

/** The address a patient opens: this site's origin and the path the server gives (/reports/s?link=…). */
export const shareUrl = (link: Pick<ShareLink, 'path'>) => `${window.location.origin}${link.path}`;
