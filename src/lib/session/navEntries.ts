import type { ParseKeys } from 'i18next';
import type { Permissions } from '../../../contract/accounts';
import { ACTIONS, type Action } from '../../../contract/actions';
import type { Group } from '../../../contract/domain';
import { pathologyUrlFor } from '../../../contract/pathology';
import { can } from './useSession';

export interface NavContext {
  permissions: Permissions | null;
  groups: readonly Group[];
}

export interface NavEntry {
  id: string;
  label: ParseKeys;
  /** Where it leads for this account, or null when it has nowhere to go. */
  href: (ctx: NavContext) => string | null;
  /** Opens another site (the group's pathology system) in a new window. */
  external?: boolean;
  place: 'primary' | 'account';
}

const anyGroup = (ctx: NavContext, flag: (g: Group) => boolean) => ctx.groups.some(flag);
/** Areas §6 "order" actions: asking for expert reports, refunding, publishing (the order list's readers). */
const ORDER_ACTIONS: readonly Action[] = ACTIONS.order;
const hasOrderAction = (ctx: NavContext) => ORDER_ACTIONS.some((a) => can(ctx.permissions, a));
/** The credit page: a credit group's administrators, and accounts that refund or ask for expert reports. */
const readsCredit = (ctx: NavContext) => anyGroup(ctx, (g) => g.enableCredit && g.accessLevel === 1)
  || (anyGroup(ctx, (g) => g.enableCredit) && (['payment_refund', 'apply_expert_report', 'apply_remote_report'] as const).some((a) => can(ctx.permissions, a)));
/** Areas §6: statistics for a group with enableStat, to its administrators and to accounts with statistics_report in one of its organisations (the server's own answer per group). */
const readsStatistics = (ctx: NavContext) => anyGroup(ctx, (g) => g.readsStatistics);
const hasExamOrReportAction = (ctx: NavContext) =>
  Object.values(ctx.permissions ?? {}).some((entry) => entry.actions.some((a) => a.includes('exam') || a.includes('report')));

/** The navbar's pathology link has no exam in hand: a template's placeholders are left empty. */
const pathologyHome = (ctx: NavContext) => {
  const template = ctx.groups.find((g) => g.pathologyUrl)?.pathologyUrl;
  return template ? pathologyUrlFor(template) : null;
};

/**
 * Core §2 navbar entries with the gates of §6: group flags (groups/mine) and permitted actions.
 * The shell also drops an entry whose route is not registered in this build, so no link is dead.
 */
export const NAV_ENTRIES: readonly NavEntry[] = [
  { id: 'workstation', label: 'nav.workstation', place: 'primary', href: (ctx) => (hasExamOrReportAction(ctx) ? '/studies' : null) },
  { id: 'registry', label: 'nav.registry', place: 'primary', href: (ctx) => (anyGroup(ctx, (g) => g.enableRegistry) ? '/registry' : null) },
  { id: 'statistics', label: 'nav.statistics', place: 'primary', href: (ctx) => (readsStatistics(ctx) ? '/group-statistics' : null) },
  { id: 'consultations', label: 'nav.consultations', place: 'primary', href: (ctx) => (anyGroup(ctx, (g) => g.enableConsultation) ? '/consultations' : null) },
  { id: 'calling', label: 'nav.calling', place: 'primary', href: (ctx) => (anyGroup(ctx, (g) => g.enableCalling) ? '/calling' : null) },
  { id: 'orders', label: 'nav.orders', place: 'primary', href: (ctx) => (hasOrderAction(ctx) ? '/orders' : null) },
  { id: 'credit', label: 'nav.credit', place: 'primary', href: (ctx) => (readsCredit(ctx) ? '/credit' : null) },
  { id: 'reportPublish', label: 'nav.reportPublish', place: 'primary', href: (ctx) => (can(ctx.permissions, 'order_report_publish') ? '/report-publish' : null) },
  { id: 'pathology', label: 'nav.pathology', place: 'primary', external: true, href: (ctx) => pathologyHome(ctx) },
  { id: 'learning', label: 'nav.learning', place: 'primary', href: () => '/learning' },
  { id: 'help', label: 'nav.help', place: 'primary', href: () => '/help' },
  { id: 'kb', label: 'kb.nav', place: 'account', href: (ctx) => (Object.values(ctx.permissions ?? {}).some((e) => e.actions.some((a) => a.startsWith('report_') || a === 'template_upsert')) ? '/kb' : null) },
  { id: 'profile', label: 'nav.profile', place: 'account', href: () => '/settings/profile' },
  { id: 'myGroup', label: 'nav.myGroup', place: 'account', href: (ctx) => (ctx.groups[0] ? `/groups/${ctx.groups[0].id}` : null) },
  { id: 'templates', label: 'templates.nav', place: 'account', href: (ctx) => (can(ctx.permissions, 'template_upsert') || anyGroup(ctx, (g) => g.isGroupKb && g.accessLevel === 1) ? '/templates' : null) },
  { id: 'settings', label: 'nav.settings', place: 'account', href: () => '/settings' },
];

export interface VisibleEntry {
  id: string;
  label: ParseKeys;
  href: string;
  external: boolean;
  place: NavEntry['place'];
}

/** The entries this account sees: allowed by its groups and permissions, and leading to a registered screen. */
export function visibleEntries(ctx: NavContext, isRegistered: (href: string) => boolean, entries: readonly NavEntry[] = NAV_ENTRIES): VisibleEntry[] {
  return entries.flatMap((entry) => {
    const href = entry.href(ctx);
    if (!href) return [];
    if (entry.external ? !/^https?:\/\//i.test(href) : !isRegistered(href)) return [];
    return [{ id: entry.id, label: entry.label, href, external: Boolean(entry.external), place: entry.place }];
  });
}
