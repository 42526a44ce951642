import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NOTIFICATION_TYPES, NOTIFICATION_USERS_MAX, type GroupOrganization, type NotificationSetting, type NotificationType } from '../../../../../contract/groups';
import type { OrganizationMember } from '../../../../../contract/organizations';
import { useLoad } from '@/lib/useLoad';
import { Menu } from '@/ui/Menu';
import { organizationsApi } from '../../api';
import { Section } from '../../ui/AdminFrame';
import { LoadState } from '@/ui/LoadState';
import { groupPartsApi, type NotificationEntry } from '../groupApi';
import { ErrorNote, HEAD_ROW, ROW, TABLE, TD, TH } from './parts';
import { useWrite } from '../../ui/useWrite';

interface Loaded { settings: NotificationSetting[]; members: Map<number, OrganizationMember[]> }

/**
 * Who is told of what, per organisation (areas §5 "Notifications"): for each kind of event up to two members of the
 * organisation. Adding or removing one saves the group's whole list; a refusal (the server's NotificationLimit, a
 * non-member) shows under the row it is about, and the row keeps what the server holds.
 */
export function NotificationUsers({ groupId, organizations }: { groupId: number; organizations: readonly GroupOrganization[] }) {
  const { t } = useTranslation();
  const orgIds = organizations.map((o) => o.id);
  const data = useLoad<Loaded>(`admin:group:${groupId}:notify:${orgIds.join(',')}`, async (signal) => {
    const [settings, members] = await Promise.all([
      groupPartsApi.notifications(groupId, { signal }),
      Promise.all(orgIds.map((id) => organizationsApi.members(id, { signal }))),
    ]);
    return { settings, members: new Map(orgIds.map((id, i) => [id, members[i] ?? []])) };
  });
  const { busy, error, run } = useWrite({ errors: 'inline' });
  const [errorAt, setErrorAt] = useState<string | null>(null);

  const usersOf = (bucketId: number, type: NotificationType) =>
    data.data?.settings.find((s) => s.bucketId === bucketId && s.type === type)?.accountIds ?? [];
  const change = async (org: GroupOrganization, type: NotificationType, accountIds: number[], message: string) => {
    const current = data.data?.settings ?? [];
    const next: NotificationEntry[] = [
      ...current.filter((s) => !(s.bucketId === org.id && s.type === type)),
      ...(accountIds.length > 0 ? [{ bucketId: org.id, type, accountIds }] : []),
    ].filter((s) => s.accountIds.length > 0).map(({ bucketId, type: kind, accountIds: ids }) => ({ bucketId, type: kind, accountIds: ids }));
    setErrorAt(`${org.id}:${type}`);
    let answer: NotificationSetting[] = [];
    if (await run(async () => { answer = await groupPartsApi.setNotifications(groupId, next); }, message)) {
      data.put((d) => (d ? { ...d, settings: answer } : d));
    }
  };

  return (
    <Section title={t('admin.groupParts.notify.title')} hint={t('admin.groupParts.notify.hint', { max: NOTIFICATION_USERS_MAX })} testId="group-notifications">
      {!data.data ? <LoadState error={data.error} onRetry={data.reload} /> : (
        <table className={TABLE} data-testid="notify-table">
          <thead>
            <tr className={HEAD_ROW}>
              <th className={`${TH} w-56`}>{t('admin.groupParts.notify.type')}</th>
              <th className={TH}>{t('admin.groupParts.notify.users')}</th>
              <th className={`${TH} w-16 text-right`}>{t('admin.groupParts.notify.count')}</th>
              <th className={`${TH} w-28`}><span className="sr-only">{t('admin.groupParts.actions')}</span></th>
            </tr>
          </thead>
          <tbody>
            {organizations.length === 0 && <tr><td colSpan={4} className="px-3 py-6 text-center text-fg-muted">{t('admin.orgs.none')}</td></tr>}
            {organizations.map((org) => {
              const members = data.data?.members.get(org.id) ?? [];
              const nameOf = (id: number) => members.find((m) => m.accountId === id)?.name ?? `#${id}`;
              return (
                <Fragment key={org.id}>
                  <tr className="border-b border-line bg-sunken/60">
                    <th colSpan={4} scope="colgroup" className="px-3 py-1.5 text-left text-xs font-semibold">
                      {org.name}<span className="ml-2 font-mono font-normal text-fg-subtle">{org.code}</span>
                    </th>
                  </tr>
                  {NOTIFICATION_TYPES.map((type) => {
                    const users = usersOf(org.id, type);
                    const typeLabel = t(`admin.groupParts.notify.types.${type}`);
                    const free = members.filter((m) => !users.includes(m.accountId));
                    const key = `${org.id}:${type}`;
                    return (
                      <Fragment key={type}>
                        <tr className={ROW} data-bucket-id={org.id} data-type={type}>
                          <th scope="row" className={`${TD} whitespace-nowrap pl-6 text-left font-normal`}>{typeLabel}</th>
                          <td className={TD}>
                            {users.length === 0 ? <span className="text-xs text-fg-muted">{t('admin.groupParts.notify.nobody')}</span> : (
                              <ul className="flex flex-wrap gap-1.5" aria-label={t('admin.groupParts.notify.usersOf', { type: typeLabel, name: org.name })}>
                                {users.map((id) => (
                                  <li key={id} className="inline-flex items-center gap-1 rounded border border-line bg-sunken py-0.5 pl-2 pr-0.5 text-xs" data-account-id={id}>
                                    {nameOf(id)}
                                    <button type="button" className="rounded px-1 text-fg-muted hover:bg-raised hover:text-danger" aria-busy={busy}
                                      aria-label={t('admin.groupParts.notify.removeUser', { user: nameOf(id), type: typeLabel, name: org.name })}
                                      onClick={() => void change(org, type, users.filter((u) => u !== id), t('admin.groupParts.notify.removed', { user: nameOf(id), type: typeLabel }))}>
                                      <span aria-hidden="true">×</span>
                                    </button>
                                  </li>
                                ))}
                              </ul>
                            )}
                          </td>
                          <td className={`${TD} text-right text-xs tabular-nums ${users.length >= NOTIFICATION_USERS_MAX ? 'text-fg' : 'text-fg-muted'}`}>
                            {users.length} / {NOTIFICATION_USERS_MAX}
                          </td>
                          <td className={`${TD} text-right`}>
                            {free.length > 0 && (
                              <Menu label={t('admin.groupParts.notify.addTo', { type: typeLabel, name: org.name })} align="right"
                                buttonClassName="btn btn-ghost h-6 px-2 text-xs" buttonContent={<>+ {t('admin.groupParts.notify.add')}</>}
                                items={free.map((m) => ({
                                  id: String(m.accountId), label: `${m.name} (${m.username})`, dataId: m.username,
                                  onSelect: () => void change(org, type, [...users, m.accountId], t('admin.groupParts.notify.added', { user: m.name, type: typeLabel })),
                                }))} />
                            )}
                          </td>
                        </tr>
                        {errorAt === key && error !== null && (
                          <tr className={ROW}><td colSpan={4} className="px-3 pb-2"><ErrorNote error={error} testId="notify-error" className="" /></td></tr>
                        )}
                      </Fragment>
                    );
                  })}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      )}
    </Section>
  );
}
