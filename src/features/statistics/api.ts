import {
  STAT_PATHS, type StatGroupsAnswer, type StatName, type StatResult, type StatScopeAnswer,
} from '../../../contract/statistics';
import type { StatQuestion } from '../../../machines/statisticsRange';
import { currentLanguage } from '@/lib/i18n';
import { http, type RequestOptions } from '@/lib/http';

/** The fields every statistic takes (contract statQuery): the machine's question, the group and the organisations. */
export function statBody(groupId: number, q: StatQuestion, bucketIds: readonly number[]) {
  return { groupId, from: q.from, to: q.to, unit: q.unit, by: q.by, ...(bucketIds.length ? { bucketIds: [...bucketIds] } : {}) };
}

/** The statistics pages' calls (areas §7 "Statistics"). */
export const statsApi = {
  groups: (options?: RequestOptions) => http.get<StatGroupsAnswer>('statistics/groups', options),
  scope: (groupId: number, options?: RequestOptions) => http.get<StatScopeAnswer>('statistics/scope', { ...options, query: { groupId } }),
  result: (groupId: number, q: StatQuestion, bucketIds: readonly number[], options?: RequestOptions) =>
    http.post<StatResult>(STAT_PATHS[q.name], statBody(groupId, q, bucketIds), options),
  export: (groupId: number, q: StatQuestion, bucketIds: readonly number[], name: StatName) =>
    http.blob('POST', 'statistics/export', { ...statBody(groupId, q, bucketIds), name, lang: currentLanguage() }),
};
