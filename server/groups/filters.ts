import type { SQL } from 'drizzle-orm';
import type { Filter, Sort } from '../../contract/common';
import {
  GROUP_MEMBER_FILTER_FIELDS, GROUP_MEMBER_SORT_FIELDS, GROUP_ORGANIZATION_FILTER_FIELDS, GROUP_ORGANIZATION_SORT_FIELDS,
  type GroupMemberFilterField, type GroupOrganizationFilterField,
} from '../../contract/groups';
import { accounts, buckets, groupMembers } from '../db/schema';
import { compileListFilters, oneOf, orderOf, valueKinds, type ListOrder, type ListQuery } from '../http/pageQuery';

/** The group's members and organisations on the shared page-query engine; the whitelists are contract/groups.ts. */
const MEMBERS: ListQuery<GroupMemberFilterField> = {
  resource: 'group members',
  fields: GROUP_MEMBER_FILTER_FIELDS,
  kinds: { text: valueKinds.text, level: oneOf([0, 1]) },
  columns: { name: accounts.name, username: accounts.username, accessLevel: groupMembers.accessLevel },
};
const MEMBER_ORDER: ListOrder<(typeof GROUP_MEMBER_SORT_FIELDS)[number]> = {
  resource: 'group members', fields: GROUP_MEMBER_SORT_FIELDS,
  columns: { name: accounts.name, username: accounts.username, lastLoginAt: accounts.lastLoginAt, id: accounts.id },
  defaultSort: { field: 'username', direction: 'asc' }, tieBreak: 'id',
};

const ORGANIZATIONS: ListQuery<GroupOrganizationFilterField> = {
  resource: 'group organizations',
  fields: GROUP_ORGANIZATION_FILTER_FIELDS,
  kinds: { text: valueKinds.text, bool: valueKinds.bool },
  columns: { name: buckets.name, code: buckets.code, isPrivate: buckets.isPrivate },
};
const ORGANIZATION_ORDER: ListOrder<(typeof GROUP_ORGANIZATION_SORT_FIELDS)[number]> = {
  resource: 'group organizations', fields: GROUP_ORGANIZATION_SORT_FIELDS,
  columns: { name: buckets.name, code: buckets.code, id: buckets.id },
  defaultSort: { field: 'name', direction: 'asc' }, tieBreak: 'id',
};

export const memberFilters = (filters: readonly Filter[]): SQL[] => compileListFilters(MEMBERS, filters);
export const memberOrder = (sorts: readonly Sort[]): SQL[] => orderOf(MEMBER_ORDER, sorts);
export const organizationFilters = (filters: readonly Filter[]): SQL[] => compileListFilters(ORGANIZATIONS, filters);
export const organizationOrder = (sorts: readonly Sort[]): SQL[] => orderOf(ORGANIZATION_ORDER, sorts);
