import { useTranslation } from 'react-i18next';
import type { GroupBucketRef, GroupOrganization } from '../../../../../contract/groups';
import type { RequestOptions } from '@/lib/http';
import { useLoad } from '@/lib/useLoad';
import { Section } from '../../ui/AdminFrame';
import { LoadState } from '@/ui/LoadState';
import { CHECKBOX, ErrorNote } from './parts';
import { useWrite } from '../../ui/useWrite';

/**
 * A plain list of the group's organisations chosen for one purpose (consultation targets, registry desks): one
 * checkbox per organisation; every tick saves the whole list (PUT replaces it) and shows what the server kept.
 */
export function BucketChecklist({ loadKey, title, hint, organizations, load, save, added, removed, labelOf, testId }: {
  loadKey: string;
  title: string;
  hint: string;
  organizations: readonly GroupOrganization[];
  load: (options: RequestOptions) => Promise<GroupBucketRef[]>;
  save: (bucketIds: number[]) => Promise<GroupBucketRef[]>;
  added: (name: string) => string;
  removed: (name: string) => string;
  labelOf: (name: string) => string;
  testId: string;
}) {
  const { t } = useTranslation();
  const list = useLoad(loadKey, (signal) => load({ signal }));
  const { busy, error, run } = useWrite({ errors: 'inline' });
  const chosen = new Set((list.data ?? []).map((b) => b.bucketId));
  const toggle = async (org: GroupOrganization, on: boolean) => {
    const next = on ? [...chosen, org.id] : [...chosen].filter((id) => id !== org.id);
    let answer: GroupBucketRef[] = [];
    if (await run(async () => { answer = await save(next); }, on ? added(org.name) : removed(org.name))) list.put(() => answer);
  };
  return (
    <Section title={title} hint={hint} testId={testId}>
      {!list.data ? <LoadState error={list.error} onRetry={list.reload} /> : (
        <ul className="divide-y divide-line rounded-md border border-line bg-surface text-[13px]" aria-label={title}>
          {organizations.length === 0 && <li className="px-3 py-4 text-center text-fg-muted">{t('admin.orgs.none')}</li>}
          {organizations.map((org) => (
            <li key={org.id} data-bucket-id={org.id}>
              <label className="flex items-center gap-2.5 px-3 py-1.5">
                <input type="checkbox" className={CHECKBOX} checked={chosen.has(org.id)} aria-busy={busy} aria-label={labelOf(org.name)}
                  onChange={(e) => void toggle(org, e.target.checked)} />
                <span className="min-w-0 flex-1 truncate">{org.name}</span>
                <span className="font-mono text-xs text-fg-subtle">{org.code}</span>
              </label>
            </li>
          ))}
        </ul>
      )}
      <ErrorNote error={error} testId={`${testId}-error`} />
    </Section>
  );
}
