import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearch } from 'wouter';
import { navigate } from '@/lib/session';
import { useLoad } from '@/lib/useLoad';
import { LoadState } from '@/ui/LoadState';
import { statsApi } from './api';
import { Refused, StatisticsDashboard } from './StatisticsDashboard';

/**
 * /group-statistics (areas §2, the navbar's statistics entry): the groups whose statistics the account may see, a
 * picker when there are several (?group=), and the chosen group's dashboard.
 */
export default function GroupStatisticsPage() {
  const { t } = useTranslation();
  const ids = useId();
  const [location] = useLocation();
  const params = new URLSearchParams(useSearch());
  const groups = useLoad('stat-groups', (signal) => statsApi.groups({ signal }));
  if (!groups.data) return <LoadState place="page" error={groups.error} onRetry={groups.reload} />;
  const list = groups.data.groups;
  if (list.length === 0) return <Refused text={t('statistics.page.noGroups')} />;
  const wanted = Number(params.get('group'));
  const group = list.find((g) => g.id === wanted) ?? list[0]!;
  const choose = (id: number) => {
    params.set('group', String(id));
    navigate(`${location}?${params.toString()}`, { replace: true });
  };
  return (
    <StatisticsDashboard groupId={group.id} heading={(name) => (
      <>
        <h1 className="text-sm font-semibold">{t('statistics.page.title')}</h1>
        {list.length > 1 ? (
          <span className="flex items-center gap-1.5 text-[13px]">
            <label htmlFor={`${ids}-group`} className="text-fg-muted">{t('statistics.page.group')}</label>
            <select id={`${ids}-group`} className="input h-7 px-1.5" value={group.id} onChange={(e) => choose(Number(e.target.value))} data-testid="stat-group">
              {list.map((g) => <option key={g.id} value={g.id}>{g.name}</option>)}
            </select>
          </span>
        ) : <span className="text-[13px] text-fg-muted">{name}</span>}
      </>
    )} />
  );
}
