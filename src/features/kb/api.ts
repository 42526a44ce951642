import type { MyOrganization } from '../../../contract/accounts';
import type { KbCreateInput, KbDeleteResult, KbItem, KbPage, KbPatchInput } from '../../../contract/kb';
import type { TemplateNode } from '../../../contract/reports';
import { http, type RequestOptions } from '@/lib/http';

/** The knowledge base's calls (docs/api.md "Knowledge base"). */
export const kbApi = {
  organisations: (options?: RequestOptions) => http.get<MyOrganization[]>('accounts/me/organizations', options),
  query: (bucketId: number, options?: RequestOptions) => http.get<KbPage>('kb-items/query', { ...options, query: { bucketId } }),
  create: (input: KbCreateInput) => http.post<KbItem>('kb-items', input),
  patch: (id: number, input: KbPatchInput) => http.patch<KbItem>(`kb-items/${id}`, input),
  remove: (id: number) => http.delete<KbDeleteResult>(`kb-items/${id}`),
  resort: (id: number, preId: number | null) => http.post<{ parentId: number | null; order: number[] }>(`kb-items/${id}/resort`, { preId }),
  /** The organisation's writing templates, for the link picker. */
  templates: (bucketId: number, options?: RequestOptions) => http.get<{ items: TemplateNode[] }>('report-templates', { ...options, query: { bucketId } }),
};
