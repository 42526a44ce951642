import { describe, expect, it } from 'vitest';
import type { Group } from '../../contract/domain';
import { visibleEntries } from '../../src/lib/session/navEntries';

const group = (flags: Partial<Group>): Group => ({
  id: 3, accessLevel: 0, displayName: 'G', domainName: null, openTelemed: false, enableRegistry: false, enableStat: false,
  enableConsultation: false, autoNotifyAudio: null, autoConsulNotifyAudio: null, defaultConsultationBucketId: null,
  defaultExpertBucketId: null, isGroupKb: false, featEncryptionViewerOn: false, enableCalling: false, openPrivateCloud: '0',
  allowOverview: false, enableCredit: false, pathologyUrl: null, allowAccountMgmt: false, readsStatistics: false, ...flags,
});
const all = () => true;
const ids = (entries: Array<{ id: string }>) => entries.map((e) => e.id);

describe('navbar entries', () => {
  it('follow the group flags and permitted actions', () => {
    const ctx = {
      permissions: { '1': { type: 1 as const, actions: ['exam_get' as const, 'order_report_publish' as const] } },
      groups: [group({ enableRegistry: true, enableCalling: true, pathologyUrl: 'https://pacs.example.org/pathology' })],
    };
    expect(ids(visibleEntries(ctx, all))).toEqual(['workstation', 'registry', 'calling', 'orders', 'reportPublish', 'pathology', 'learning', 'help', 'profile', 'myGroup', 'settings']);
  });

  it('show the orders to any order action, the credit to its readers in a credit group (issue 13)', () => {
    const applying = { '1': { type: 1 as const, actions: ['apply_expert_report' as const] } };
    const primary = (ctx: Parameters<typeof visibleEntries>[0]) => ids(visibleEntries(ctx, all)).filter((id) => id === 'orders' || id === 'credit');
    expect(primary({ permissions: applying, groups: [group({ enableCredit: true })] })).toEqual(['orders', 'credit']);
    expect(primary({ permissions: applying, groups: [group({})] })).toEqual(['orders']);
    expect(primary({ permissions: { '1': { type: 1 as const, actions: ['exam_get' as const] } }, groups: [group({ enableCredit: true })] })).toEqual([]);
    expect(primary({ permissions: null, groups: [group({ enableCredit: true, accessLevel: 1 })] })).toEqual(['credit']);
  });

  it('show the statistics only where the server says this account reads a group\'s statistics', () => {
    const reporting = { '1': { type: 1 as const, actions: ['statistics_report' as const] } };
    const stats = (ctx: Parameters<typeof visibleEntries>[0]) => ids(visibleEntries(ctx, all)).includes('statistics');
    // The right in one group's organisation and statistics on in another group: neither group's statistics.
    expect(stats({ permissions: reporting, groups: [group({ id: 3 }), group({ id: 4, enableStat: true })] })).toBe(false);
    expect(stats({ permissions: null, groups: [group({ id: 3 }), group({ id: 4, enableStat: true, readsStatistics: true })] })).toBe(true);
    expect(visibleEntries({ permissions: null, groups: [group({ enableStat: true, readsStatistics: true })] }, all).find((e) => e.id === 'statistics')?.href).toBe('/group-statistics');
  });

  it('hide what the groups switch off and what no action allows', () => {
    const ctx = { permissions: { '1': { type: 1 as const, actions: ['registry_create' as const] } }, groups: [group({})] };
    expect(ids(visibleEntries(ctx, all))).toEqual(['learning', 'help', 'profile', 'myGroup', 'settings']);
  });

  it('never show a link whose screen is not registered', () => {
    const ctx = { permissions: null, groups: [group({ enableStat: true, enableConsultation: true })] };
    const registered = new Set(['/settings/profile', '/settings']);
    expect(ids(visibleEntries(ctx, (href) => registered.has(href)))).toEqual(['profile', 'settings']);
  });

  it('open the pathology system only for a web address', () => {
    const ctx = { permissions: null, groups: [group({ pathologyUrl: 'javascript:alert(1)' })] };
    expect(ids(visibleEntries(ctx, all))).not.toContain('pathology');
  });

  it('lead "my group" to the first group of the account', () => {
    const ctx = { permissions: null, groups: [group({ id: 9 })] };
    expect(visibleEntries(ctx, all).find((e) => e.id === 'myGroup')?.href).toBe('/groups/9');
  });
});
