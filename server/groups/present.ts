import type { GroupView } from '../../contract/groups';
import { MATCH_DOB, type MatchDob } from '../../contract/registry';
import type { groups } from '../db/schema';

export type GroupRow = typeof groups.$inferSelect;

/**
 * A group as its members see it (groups/mine, GET groups/{id}): every flag, not its name, creator or creation time.
 * `readsStatistics` is the caller's own (server/statistics/scope.ts readsStatistics).
 */
export function presentGroup(g: GroupRow, accessLevel: number, readsStatistics: boolean): GroupView {
  return {
    id: g.id, accessLevel: accessLevel === 1 ? 1 : 0, displayName: g.displayName, domainName: g.domainName, openTelemed: g.openTelemed,
    enableRegistry: g.enableRegistry, enableStat: g.enableStat, enableConsultation: g.enableConsultation, autoNotifyAudio: g.autoNotifyAudio,
    autoConsulNotifyAudio: g.autoConsulNotifyAudio, defaultConsultationBucketId: g.defaultConsultationBucketId,
    defaultExpertBucketId: g.defaultExpertBucketId, isGroupKb: g.isGroupKb, featEncryptionViewerOn: g.featEncryptionViewerOn,
    enableCalling: g.enableCalling, openPrivateCloud: g.openPrivateCloud, allowOverview: g.allowOverview, enableCredit: g.enableCredit,
    pathologyUrl: g.pathologyUrl, allowAccountMgmt: g.allowAccountMgmt, readsStatistics,
    matchDob: ((MATCH_DOB as readonly string[]).includes(g.matchDob) ? g.matchDob : 'shift_off') as MatchDob,
    logo: g.logo, url: g.url, allowRegistration: g.allowRegistration, searchInGroup: g.searchInGroup,
  };
}
