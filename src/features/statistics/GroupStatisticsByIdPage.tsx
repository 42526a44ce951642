import { useTranslation } from 'react-i18next';
import { useParams } from 'wouter';
import { Refused, StatisticsDashboard } from './StatisticsDashboard';

/** /groups/{groupId}/statistics (areas §2): the same dashboard for one group. */
export default function GroupStatisticsByIdPage() {
  const { t } = useTranslation();
  const groupId = Number(useParams<{ groupId: string }>().groupId);
  if (!Number.isSafeInteger(groupId) || groupId <= 0) return <Refused text={t('statistics.page.refused')} />;
  return (
    <StatisticsDashboard groupId={groupId} heading={(name) => (
      <>
        <h1 className="text-sm font-semibold">{t('statistics.page.groupTitle', { group: name })}</h1>
      </>
    )} />
  );
}
