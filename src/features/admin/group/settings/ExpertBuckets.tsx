import { useTranslation } from 'react-i18next';
import type { ExpertBucket, GroupOrganization } from '../../../../../contract/groups';
import { useLoad } from '@/lib/useLoad';
import { Section } from '../../ui/AdminFrame';
import { LoadState } from '@/ui/LoadState';
import { groupPartsApi } from '../groupApi';
import { CHECKBOX, ErrorNote, HEAD_ROW, ROW, TABLE, TD, TH } from './parts';
import { useWrite } from '../../ui/useWrite';

/**
 * The organisations the group's members ask for expert (remote) reports, each with its free flag: a free expert
 * organisation's reports cost the asking organisation nothing. Every tick saves the whole list at once.
 */
export function ExpertBuckets({ groupId, organizations }: { groupId: number; organizations: readonly GroupOrganization[] }) {
  const { t } = useTranslation();
  const list = useLoad(`admin:group:${groupId}:experts`, (signal) => groupPartsApi.expertBuckets(groupId, { signal }));
  const { busy, error, run } = useWrite({ errors: 'inline' });
  const save = async (next: ExpertBucket[], message: string) => {
    let answer: ExpertBucket[] = [];
    if (await run(async () => { answer = await groupPartsApi.setExpertBuckets(groupId, next.map(({ bucketId, free }) => ({ bucketId, free }))); }, message)) {
      list.put(() => answer);
    }
  };
  const current = list.data ?? [];
  const entry = (bucketId: number) => current.find((e) => e.bucketId === bucketId);
  const setExpert = (org: GroupOrganization, on: boolean) => void save(
    on ? [...current, { bucketId: org.id, name: org.name, free: false }] : current.filter((e) => e.bucketId !== org.id),
    t(on ? 'admin.groupParts.experts.added' : 'admin.groupParts.experts.removed', { name: org.name }),
  );
  const setFree = (org: GroupOrganization, free: boolean) => void save(
    current.map((e) => (e.bucketId === org.id ? { ...e, free } : e)),
    t(free ? 'admin.groupParts.experts.freeOn' : 'admin.groupParts.experts.freeOff', { name: org.name }),
  );

  return (
    <Section title={t('admin.groupParts.experts.title')} hint={t('admin.groupParts.experts.hint')} testId="group-experts">
      {!list.data ? <LoadState error={list.error} onRetry={list.reload} /> : (
        <table className={TABLE} data-testid="expert-table">
          <thead>
            <tr className={HEAD_ROW}>
              <th className={TH}>{t('admin.groupParts.organization')}</th>
              <th className={`${TH} w-40`}>{t('admin.groupParts.experts.expert')}</th>
              <th className={`${TH} w-40`}>{t('admin.groupParts.experts.free')}</th>
            </tr>
          </thead>
          <tbody>
            {organizations.length === 0 && <tr><td colSpan={3} className="px-3 py-6 text-center text-fg-muted">{t('admin.orgs.none')}</td></tr>}
            {organizations.map((org) => {
              const e = entry(org.id);
              return (
                <tr key={org.id} className={ROW} data-bucket-id={org.id}>
                  <td className={TD}>{org.name}<span className="ml-2 font-mono text-xs text-fg-subtle">{org.code}</span></td>
                  <td className={TD}>
                    <label className="flex items-center gap-2">
                      <input type="checkbox" className={CHECKBOX} checked={e !== undefined} aria-busy={busy} data-field="expert"
                        aria-label={t('admin.groupParts.experts.expertOf', { name: org.name })} onChange={(ev) => setExpert(org, ev.target.checked)} />
                      <span aria-hidden="true" className={e ? '' : 'text-fg-muted'}>{e ? t('admin.groupParts.yes') : t('admin.groupParts.no')}</span>
                    </label>
                  </td>
                  <td className={TD}>
                    <label className={`flex items-center gap-2 ${e ? '' : 'opacity-50'}`}>
                      <input type="checkbox" className={CHECKBOX} checked={e?.free ?? false} disabled={e === undefined} aria-busy={busy} data-field="free"
                        aria-label={t('admin.groupParts.experts.freeOf', { name: org.name })} onChange={(ev) => setFree(org, ev.target.checked)} />
                      <span aria-hidden="true" className={e?.free ? '' : 'text-fg-muted'}>{e?.free ? t('admin.groupParts.experts.freeYes') : t('admin.groupParts.experts.freeNo')}</span>
                    </label>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <ErrorNote error={error} testId="expert-error" />
    </Section>
  );
}
