import { useTranslation } from 'react-i18next';
import { useLoad } from '@/lib/useLoad';
import { groupsApi } from '../api';
import { Section } from '../ui/AdminFrame';
import { LoadState } from '@/ui/LoadState';

/** The group's report-quality grades (areas §3 quality record): how many reports got each grade, in all and per organisation. */
export function GroupQuality({ groupId }: { groupId: number }) {
  const { t } = useTranslation();
  const quality = useLoad(`admin:group:${groupId}:quality`, (signal) => groupsApi.quality(groupId, { signal }));
  const data = quality.data;
  const grades = data?.grades.map((g) => g.grade) ?? [];
  const countOf = (list: { grade: string; count: number }[], grade: string) => list.find((g) => g.grade === grade)?.count ?? 0;
  return (
    <Section title={t('admin.group.quality')} hint={t('admin.group.qualityHint')} testId="group-quality">
      {!data ? <LoadState error={quality.error} onRetry={quality.reload} /> : data.total === 0 ? (
        <p className="text-[13px] text-fg-muted">{t('admin.group.noQuality')}</p>
      ) : (
        <table className="max-w-xl border-collapse rounded-md border border-line bg-surface text-[13px]">
          <thead className="text-xs text-fg-muted">
            <tr className="border-b border-line">
              <th scope="col" className="px-3 py-1.5 text-left font-normal">{t('admin.group.organization')}</th>
              {grades.map((grade) => <th key={grade} scope="col" className="px-3 py-1.5 text-right font-normal">{grade}</th>)}
              <th scope="col" className="px-3 py-1.5 text-right font-normal">{t('admin.group.qualityTotal')}</th>
            </tr>
          </thead>
          <tbody className="tabular-nums">
            {data.organizations.filter((o) => o.total > 0).map((o) => (
              <tr key={o.bucketId} className="border-b border-line last:border-0">
                <th scope="row" className="px-3 py-1.5 text-left font-normal">{o.name}</th>
                {grades.map((grade) => <td key={grade} className="px-3 py-1.5 text-right">{countOf(o.grades, grade)}</td>)}
                <td className="px-3 py-1.5 text-right">{o.total}</td>
              </tr>
            ))}
            <tr className="border-t border-line font-semibold">
              <th scope="row" className="px-3 py-1.5 text-left">{t('admin.group.qualityTotal')}</th>
              {grades.map((grade) => <td key={grade} className="px-3 py-1.5 text-right">{countOf(data.grades, grade)}</td>)}
              <td className="px-3 py-1.5 text-right" data-testid="quality-total">{data.total}</td>
            </tr>
          </tbody>
        </table>
      )}
    </Section>
  );
}
