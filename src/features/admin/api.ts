import type {
  AssignRule, CreateGroupInput, GroupAvailable, GroupDetail, GroupMember, GroupOrganization, GroupQuality, GroupView, PatchGroupInput,
} from '../../../contract/groups';
import type {
  ActionCategory, Bodypart, CriticalValue, Department, Doctor, Organization, OrganizationMember, OrganizationPatch, Procedure,
  ProcedureInput, Role, RoleInput,
} from '../../../contract/organizations';
import type { BucketAccess } from '../../../contract/actions';
import type { RealmPage, RealmQueryInput } from '../../../contract/accounts';
import { http, type RequestOptions } from '@/lib/http';

/** Group administration (docs/api.md "Groups"). */
export const groupsApi = {
  mine: (options?: RequestOptions) => http.get<GroupView[]>('groups/mine', options),
  available: (name: string, options?: RequestOptions) => http.get<GroupAvailable>('groups/available', { ...options, query: { name } }),
  create: (input: CreateGroupInput) => http.post<GroupView>('groups', input),
  get: (id: number, options?: RequestOptions) => http.get<GroupDetail>(`groups/${id}`, options),
  patch: (id: number, input: PatchGroupInput) => http.patch<GroupView>(`groups/${id}`, input),
  remove: (id: number) => http.delete(`groups/${id}`),
  quit: (id: number) => http.post(`groups/${id}/quit`),
  quality: (id: number, options?: RequestOptions) => http.get<GroupQuality>(`groups/${id}/quality`, options),
  members: (id: number, options?: RequestOptions) => http.get<GroupMember[]>(`groups/${id}/members`, options),
  invite: (id: number, username: string, accessLevel: 0 | 1) => http.post<GroupMember>(`groups/${id}/members/invite`, { username, accessLevel }),
  setMemberLevel: (id: number, accountId: number, accessLevel: 0 | 1) => http.patch<GroupMember>(`groups/${id}/members/${accountId}`, { accessLevel }),
  removeMember: (id: number, accountId: number) => http.delete(`groups/${id}/members/${accountId}`),
  organizations: (id: number, options?: RequestOptions) => http.get<GroupOrganization[]>(`groups/${id}/organizations`, options),
  addOrganization: (id: number, input: { name: string; code: string; isPrivate: boolean }) => http.post<GroupOrganization>(`groups/${id}/organizations`, input),
  deleteOrganization: (id: number, bucketId: number) => http.delete(`groups/${id}/organizations/${bucketId}`),
  rules: (id: number, options?: RequestOptions) => http.get<AssignRule[]>(`groups/${id}/rules`, options),
};

/** Organisation administration (docs/api.md "Organisations"). */
export const organizationsApi = {
  get: (id: number, options?: RequestOptions) => http.get<Organization>(`buckets/${id}`, options),
  patch: (id: number, input: OrganizationPatch) => http.patch<Organization>(`buckets/${id}`, input),
  bindCode: (id: number, code: string) => http.post<Organization>(`buckets/${id}/bind-code`, { code }),
  members: (id: number, options?: RequestOptions) => http.get<OrganizationMember[]>(`buckets/${id}/members`, options),
  addMember: (id: number, username: string, accessLevel: BucketAccess) => http.post<OrganizationMember>(`buckets/${id}/members`, { username, accessLevel }),
  setMemberLevel: (id: number, accountId: number, accessLevel: BucketAccess) => http.patch<OrganizationMember>(`buckets/${id}/members/${accountId}`, { accessLevel }),
  removeMember: (id: number, accountId: number) => http.delete(`buckets/${id}/members/${accountId}`),
  actions: (id: number, options?: RequestOptions) => http.get<ActionCategory[]>(`buckets/${id}/actions`, options),
  roles: (id: number, options?: RequestOptions) => http.get<Role[]>(`buckets/${id}/roles`, options),
  createRole: (id: number, input: RoleInput) => http.post<Role>(`buckets/${id}/roles`, input),
  updateRole: (id: number, roleId: number, input: RoleInput) => http.put<Role>(`buckets/${id}/roles/${roleId}`, input),
  deleteRole: (id: number, roleId: number) => http.delete(`buckets/${id}/roles/${roleId}`),
  setRoleUsers: (id: number, roleId: number, accountIds: number[]) => http.put(`buckets/${id}/roles/${roleId}/users`, { accountIds }),
  departments: (id: number, options?: RequestOptions) => http.get<Department[]>(`buckets/${id}/departments`, options),
  bodyparts: (id: number, options?: RequestOptions) => http.get<Bodypart[]>(`buckets/${id}/bodyparts`, options),
  doctors: (id: number, options?: RequestOptions) => http.get<Doctor[]>(`buckets/${id}/doctors`, options),
  criticalValues: (id: number, options?: RequestOptions) => http.get<CriticalValue[]>(`buckets/${id}/critical-values`, options),
  addDictionary: (id: number, kind: DictionaryKind, name: string) => http.post(`buckets/${id}/${kind}`, { name }),
  deleteDictionary: (id: number, kind: DictionaryKind, itemId: number) => http.delete(`buckets/${id}/${kind}/${itemId}`),
  procedures: (id: number, options?: RequestOptions) => http.get<Procedure[]>(`buckets/${id}/procedures`, options),
  createProcedure: (id: number, input: ProcedureInput) => http.post<Procedure>(`buckets/${id}/procedures`, input),
  updateProcedure: (id: number, procedureId: number, input: ProcedureInput) => http.put<Procedure>(`buckets/${id}/procedures/${procedureId}`, input),
  deleteProcedure: (id: number, procedureId: number) => http.delete(`buckets/${id}/procedures/${procedureId}`),
  resortProcedures: (id: number, ids: number[]) => http.post(`buckets/${id}/procedures/resort`, { ids }),
};

/** The account list of the groups one administers (docs/api.md "Accounts and sessions"). */
export const accountsApi = {
  realm: (input: RealmQueryInput, options?: RequestOptions) => http.post<RealmPage>('accounts/query-in-realm', input, options),
  setStatus: (id: number, status: 0 | 1) => http.post(`accounts/${id}/status`, { status }),
};

/** The name-only dictionaries the settings screen edits in place. */
export type DictionaryKind = 'departments' | 'bodyparts' | 'critical-values';
