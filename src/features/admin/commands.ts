import type { CommandSpec } from '@/lib/commands';
import type { GroupTab, OrganizationTab } from './paths';

/** The tabs of the page in hand (a group's or an organisation's), each on a number key (1–4, 1–6) and in the palette. */
export interface GroupTabContext { goTab(tab: GroupTab): void; isAdmin: boolean }
export interface OrganizationTabContext { goTab(tab: OrganizationTab): void; canAdmin: boolean; canManageGraphs: boolean }

const tabs = 'admin.commands.sections.tabs';
const lists = 'admin.commands.sections.lists';

function groupTab(key: string, tab: GroupTab, adminOnly = false): CommandSpec<GroupTabContext> {
  return { id: `admin.group.${tab}`, label: `admin.commands.group.${tab}`, section: tabs, scope: 'group', shortcut: key, when: (c) => !adminOnly || c.isAdmin, run: (c) => c.goTab(tab) };
}
function organizationTab(key: string, tab: OrganizationTab, when: (c: OrganizationTabContext) => boolean = (c) => c.canAdmin): CommandSpec<OrganizationTabContext> {
  return { id: `admin.org.${tab}`, label: `admin.commands.org.${tab}`, section: tabs, scope: 'organization', shortcut: key, when, run: (c) => c.goTab(tab) };
}

/** A group's pages (scope 'group'): 1 home, 2 organisations, 3 members, 4 settings (its admins). */
export const groupCommands: readonly CommandSpec<GroupTabContext>[] = [
  groupTab('1', 'index'), groupTab('2', 'organizations'), groupTab('3', 'members'), groupTab('4', 'settings', true),
];

/**
 * An organisation's pages (scope 'organization'), every tab on a key: 1 home, 2 roles, 3 settings, 4 procedures,
 * 5 print templates, 6 sample graphs (also for whoever may manage them without administering the organisation), 7 HL7.
 */
export const organizationCommands: readonly CommandSpec<OrganizationTabContext>[] = [
  organizationTab('1', 'index', () => true), organizationTab('2', 'roles'), organizationTab('3', 'settings'), organizationTab('4', 'procedures'),
  organizationTab('5', 'print-templates'), organizationTab('6', 'sample-graphs', (c) => c.canAdmin || c.canManageGraphs), organizationTab('7', 'hl7'),
];

/** The roles tab (scope 'organization'): Alt+N puts the keyboard in the new role's name (Enter creates it). */
export const roleCommands: readonly CommandSpec<{ newRole(): void }>[] = [
  { id: 'admin.roles.new', label: 'admin.commands.newRole', section: lists, scope: 'organization', shortcut: 'Alt+KeyN', keywords: ['new', 'role', '新建', '角色'], run: (c) => c.newRole() },
];

export const organizationListCommands: readonly CommandSpec<{ add(): void; canAdd: boolean }>[] = [
  { id: 'admin.orgs.add', label: 'admin.commands.addOrganization', section: lists, scope: 'group', shortcut: 'Alt+KeyN', keywords: ['new', '新建'], when: (c) => c.canAdd, run: (c) => c.add() },
];

export const memberListCommands: readonly CommandSpec<{ find(): void; invite(): void; create(): void; canInvite: boolean }>[] = [
  { id: 'admin.members.find', label: 'admin.commands.findMember', section: lists, scope: 'group', shortcut: '/', run: (c) => c.find() },
  { id: 'admin.members.invite', label: 'admin.commands.inviteMember', section: lists, scope: 'group', shortcut: 'i', when: (c) => c.canInvite, run: (c) => c.invite() },
  // `a`, beside `i` (invite): a new account straight into the group.
  { id: 'admin.members.create', label: 'admin.commands.createAccount', section: lists, scope: 'group', shortcut: 'a', keywords: ['new', '新建', 'account'], when: (c) => c.canInvite, run: (c) => c.create() },
];

/** The group settings' sections, in the page's order: the jump list's entries and their keys (Shift+1 … Shift+7). */
export const GROUP_SETTINGS_SECTIONS = ['group-flags-section', 'group-rules', 'group-experts', 'group-consultation-targets', 'group-registry-desks', 'group-notifications', 'colour-rules'] as const;
export type GroupSettingsSection = (typeof GROUP_SETTINGS_SECTIONS)[number];

/**
 * The group settings tab (scope 'group'): Shift+1 … Shift+7 jump to a section (the flags, the assignment rules, experts,
 * consultation targets, registry desks, notifications, colour rules) and put the keyboard on its first control —
 * the long page is seven stops apart, not twenty-six Tabs.
 */
export const groupSettingsCommands: readonly CommandSpec<{ jump(section: GroupSettingsSection): void }>[] = GROUP_SETTINGS_SECTIONS.map((section, i) => ({
  id: `admin.settings.jump.${section}`,
  label: `admin.commands.jump.${section}`,
  section: 'admin.commands.sections.settings',
  scope: 'group',
  shortcut: `Shift+Digit${i + 1}`,
  run: (c) => c.jump(section),
}));

/** The DICOM panel of an organisation's devices (scope 'organization'): on the focused device row, and the switch. */
export interface DicomPanelContext {
  focusedDevice(): number | null;
  echo(deviceId: number): void;
  edit(deviceId: number): void;
  toggleUnknown(): void;
  ready: boolean;
}
const dicom = 'admin.commands.sections.dicom';
export const dicomCommands: readonly CommandSpec<DicomPanelContext>[] = [
  { id: 'admin.dicom.echo', label: 'admin.commands.dicomEcho', section: dicom, scope: 'organization', shortcut: 'e', keywords: ['C-ECHO', 'ping', 'DICOM'],
    when: (c) => c.focusedDevice() !== null, run: (c) => c.echo(c.focusedDevice()!) },
  { id: 'admin.dicom.edit', label: 'admin.commands.dicomEdit', section: dicom, scope: 'organization', shortcut: 'h', keywords: ['host', 'port', 'DICOM'],
    when: (c) => c.focusedDevice() !== null, run: (c) => c.edit(c.focusedDevice()!) },
  { id: 'admin.dicom.unknown', label: 'admin.commands.dicomUnknown', section: dicom, scope: 'organization', shortcut: 'Shift+U', keywords: ['AE', 'DICOM', 'unknown'],
    when: (c) => c.ready, run: (c) => c.toggleUnknown() },
];
