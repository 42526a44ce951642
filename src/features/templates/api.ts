import type { MyOrganization } from '../../../contract/accounts';
import type { TemplateNode, TemplateUpsertInput } from '../../../contract/reports';
import type { TemplateImportAnswer, TemplateOwner, TemplateTreeAnswer } from '../../../contract/templates';
import { http } from '@/lib/http';

/** Which tree the screen shows: an organisation's or the group's shared one. */
export type TreeOwner = TemplateOwner;

const ownerQuery = (owner: TreeOwner) => (owner.bucketId !== undefined ? { bucketId: owner.bucketId } : { groupId: owner.groupId });

/** The management screen's calls (docs/api.md "Report templates"). */
export const templatesApi = {
  organisations: () => http.get<MyOrganization[]>('accounts/me/organizations'),
  tree: (owner: TreeOwner) => http.get<TemplateTreeAnswer>('report-templates', { query: ownerQuery(owner) }),
  upsert: (input: TemplateUpsertInput) => http.post<TemplateNode>('report-templates/upsert', input),
  remove: (id: number) => http.delete<void>(`report-templates/${id}`),
  export: (owner: TreeOwner) => http.blob('GET', 'report-templates/export', undefined, { query: ownerQuery(owner) }),
  import: (owner: TreeOwner, parentId: number | null, document: unknown) =>
    http.post<TemplateImportAnswer>('report-templates/import', { ...ownerQuery(owner), parentId, document }),
};
