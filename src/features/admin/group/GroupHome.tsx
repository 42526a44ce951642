import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { GroupDetail } from '../../../../contract/groups';
import { Section } from '../ui/AdminFrame';
import { FLAG_KEYS } from './flags';
import { GroupDanger } from './GroupDanger';
import { GroupQuality } from './GroupQuality';

/** A group's home: what it is called, its size, which features its members have, its report quality; leave or delete it. */
export function GroupHome({ group }: { group: GroupDetail }) {
  const { t } = useTranslation();
  const on = FLAG_KEYS.filter((key) => group[key] === true);
  return (
    <>
      <Section title={t('admin.group.summary')}>
        <dl className="grid max-w-xl grid-cols-[10rem_1fr] gap-x-4 gap-y-1.5 rounded-md border border-line bg-surface p-4 text-[13px]">
          <dt className="text-fg-muted">{t('admin.groups.displayName')}</dt><dd data-testid="group-display-name">{group.displayName}</dd>
          <dt className="text-fg-muted">{t('admin.groups.name')}</dt><dd>{group.name}</dd>
          {group.domainName && <><dt className="text-fg-muted">{t('admin.group.domainName')}</dt><dd>{group.domainName}</dd></>}
          {group.admin && (
            <>
              <dt className="text-fg-muted">{t('admin.group.memberCount')}</dt><dd className="tabular-nums">{group.admin.memberCount}</dd>
              <dt className="text-fg-muted">{t('admin.group.organizationCount')}</dt><dd className="tabular-nums">{group.admin.organizationCount}</dd>
            </>
          )}
          <dt className="text-fg-muted">{t('admin.group.yourLevel')}</dt>
          <dd>{group.accessLevel === 1 ? t('admin.level.groupAdmin') : t('admin.level.groupMember')}</dd>
          {group.accessLevel === 1 && <><dt className="text-fg-muted">{t('admin.accounts.title')}</dt><dd><Link href="/accounts" className="link">{t('admin.accounts.open')}</Link></dd></>}
          {group.accessLevel === 1 && group.enableStat && (
            <><dt className="text-fg-muted">{t('admin.group.statistics')}</dt>
              <dd><Link href={`/groups/${group.id}/statistics`} className="link" data-testid="group-statistics-link">{t('admin.group.statisticsOpen')}</Link></dd></>
          )}
        </dl>
      </Section>
      <Section title={t('admin.group.features')}>
        <ul className="flex max-w-xl flex-wrap gap-1.5" data-testid="group-features">
          {on.length === 0 ? <li className="text-[13px] text-fg-muted">{t('admin.group.noFeatures')}</li> : on.map((key) => (
            <li key={key} className="rounded border border-line bg-surface px-2 py-0.5 text-xs">{t(`admin.flags.${key}.label`)}</li>
          ))}
        </ul>
      </Section>
      <GroupQuality groupId={group.id} />
      <GroupDanger group={group} />
    </>
  );
}
