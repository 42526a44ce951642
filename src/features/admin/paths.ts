/** The administration screens' addresses (areas §2). */
export const GROUP_TABS = ['index', 'organizations', 'members', 'settings'] as const;
export type GroupTab = (typeof GROUP_TABS)[number];
export const ORGANIZATION_TABS = ['index', 'roles', 'settings', 'procedures', 'print-templates', 'sample-graphs', 'hl7'] as const;
export type OrganizationTab = (typeof ORGANIZATION_TABS)[number];

export const groupsPath = () => '/groups';
export const groupPath = (groupId: number, tab: GroupTab = 'index') => `/groups/${groupId}${tab === 'index' ? '' : `/${tab}`}`;
export const organizationPath = (groupId: number, organizationId: number, tab: OrganizationTab = 'index') =>
  `/groups/${groupId}/organizations/${organizationId}${tab === 'index' ? '' : `/${tab}`}`;

/** A route parameter as a database id, or null. */
export function idOf(value: string | undefined): number | null {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 && n <= 2_147_483_647 ? n : null;
}
