import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isHttpError, isSessionEndingError } from '@/lib/http';
import { useLoad } from '@/lib/useLoad';
import { LoadError, LoadState } from '@/ui/LoadState';
import { statsApi } from './api';
import { StatisticsBoard } from './StatisticsBoard';

/** The refusal: a group the account may not count (403) or does not know (404), or none at all. */
export function Refused({ text }: { text: string }) {
  return <LoadError text={text} className="mx-auto mt-12 flex w-full max-w-md flex-col gap-3 px-4" testId="statistics-refused" />;
}

/** A group's dashboard once its scope (organisations, zone, today, allowOverview) is known. */
export function StatisticsDashboard({ groupId, heading }: { groupId: number; heading: (groupName: string) => ReactNode }) {
  const { t } = useTranslation();
  const scope = useLoad(`stat-scope:${groupId}`, (signal) => statsApi.scope(groupId, { signal }));
  if (scope.error) {
    if (isSessionEndingError(scope.error)) return null;
    const refused = isHttpError(scope.error) && (scope.error.status === 403 || scope.error.status === 404);
    return refused ? <Refused text={t('statistics.page.refused')} /> : <LoadState place="page" error={scope.error} onRetry={scope.reload} />;
  }
  if (!scope.data || scope.stale) return <LoadState place="page" error={null} onRetry={scope.reload} />;
  // Keyed by group: another group starts from its own today and charts.
  return <StatisticsBoard key={groupId} groupId={groupId} scope={scope.data} heading={heading(scope.data.groupName)} />;
}
