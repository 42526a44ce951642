import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '@/lib/errorText';
import { isHttpError, isSessionEndingError } from '@/lib/http';
import { useLoad } from '@/lib/useLoad';
import { Alert } from '@/ui/Alert';
import { Spinner } from '@/ui/Spinner';
import { statsApi } from './api';
import { StatisticsBoard } from './StatisticsBoard';

/** The refusal: a group the account may not count (403) or does not know (404), or none at all. */
export function Refused({ text }: { text: string }) {
  return (
    <div className="mx-auto mt-12 flex w-full max-w-md flex-col gap-3 px-4" data-testid="statistics-refused">
      <Alert>{text}</Alert>
    </div>
  );
}

/** A group's dashboard once its scope (organisations, zone, today, allowOverview) is known. */
export function StatisticsDashboard({ groupId, heading }: { groupId: number; heading: (groupName: string) => ReactNode }) {
  const { t } = useTranslation();
  const scope = useLoad(`stat-scope:${groupId}`, (signal) => statsApi.scope(groupId, { signal }));
  if (scope.error) {
    if (isSessionEndingError(scope.error)) return null;
    const refused = isHttpError(scope.error) && (scope.error.status === 403 || scope.error.status === 404);
    return refused ? <Refused text={t('statistics.page.refused')} /> : (
      <div className="mx-auto mt-12 flex max-w-md flex-col gap-3 px-4">
        <Alert>{errorText(t, scope.error)}</Alert>
        <div><button type="button" className="btn" onClick={scope.reload}>{t('common.retry')}</button></div>
      </div>
    );
  }
  if (!scope.data || scope.stale) return <div className="flex flex-1 items-center justify-center py-12"><Spinner label={t('common.loading')} /></div>;
  // Keyed by group: another group starts from its own today and charts.
  return <StatisticsBoard key={groupId} groupId={groupId} scope={scope.data} heading={heading(scope.data.groupName)} />;
}
