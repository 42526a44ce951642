import type { z } from 'zod';
import type { Page, PageQueryInput } from '../../../../contract/common';
import type {
  AssignRule, AssignRuleInput, createMemberAccountInput, ExpertBucket, GroupBucketRef, GroupMember, GroupRad, NotificationSetting, notificationsInput,
} from '../../../../contract/groups';
import { http, type RequestOptions } from '@/lib/http';

/** POST groups/{id}/members/create-account: a new account straight into the group (contract/groups.ts's schema). */
export type CreateMemberAccountBody = z.input<typeof createMemberAccountInput>;
/** One entry of PUT groups/{id}/notifications (the whole list of the group is sent at once). */
export type NotificationEntry = z.input<typeof notificationsInput>[number];

/**
 * The group's settings lists and member paging (docs/api.md "Groups"): assign rules, radiologists, expert and
 * consultation organisations, registry desks, notification users, the paged member query and account creation.
 */
export const groupPartsApi = {
  rules: (id: number, options?: RequestOptions) => http.get<AssignRule[]>(`groups/${id}/rules`, options),
  createRule: (id: number, input: AssignRuleInput) => http.post<AssignRule>(`groups/${id}/rules`, input),
  updateRule: (id: number, ruleId: number, input: AssignRuleInput) => http.put<AssignRule>(`groups/${id}/rules/${ruleId}`, input),
  deleteRule: (id: number, ruleId: number) => http.delete(`groups/${id}/rules/${ruleId}`),
  rads: (id: number, options?: RequestOptions) => http.get<GroupRad[]>(`groups/${id}/rads`, options),
  expertBuckets: (id: number, options?: RequestOptions) => http.get<ExpertBucket[]>(`groups/${id}/expert-buckets`, options),
  setExpertBuckets: (id: number, list: { bucketId: number; free: boolean }[]) => http.put<ExpertBucket[]>(`groups/${id}/expert-buckets`, list),
  consultationTargets: (id: number, options?: RequestOptions) => http.get<GroupBucketRef[]>(`groups/${id}/consultation-targets`, options),
  setConsultationTargets: (id: number, bucketIds: number[]) => http.put<GroupBucketRef[]>(`groups/${id}/consultation-targets`, bucketIds),
  registryBuckets: (id: number, options?: RequestOptions) => http.get<GroupBucketRef[]>(`groups/${id}/registry-buckets`, options),
  setRegistryBuckets: (id: number, bucketIds: number[]) => http.put<GroupBucketRef[]>(`groups/${id}/registry-buckets`, bucketIds),
  notifications: (id: number, options?: RequestOptions) => http.get<NotificationSetting[]>(`groups/${id}/notifications`, options),
  setNotifications: (id: number, list: NotificationEntry[]) => http.put<NotificationSetting[]>(`groups/${id}/notifications`, list),
  queryMembers: (id: number, query: PageQueryInput, options?: RequestOptions) => http.post<Page<GroupMember>>(`groups/${id}/members/query`, query, options),
  createAccount: (id: number, input: CreateMemberAccountBody) => http.post<GroupMember>(`groups/${id}/members/create-account`, input),
};
