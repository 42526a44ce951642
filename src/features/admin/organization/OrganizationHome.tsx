import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { BUCKET_ACCESS, type BucketAccess } from '../../../../contract/actions';
import type { Organization, OrganizationMember } from '../../../../contract/organizations';
import { formatDateTime } from '@/lib/format';
import { useLoad } from '@/lib/useLoad';
import { ConfirmDialog } from '@/ui/ConfirmDialog';
import { organizationsApi } from '../api';
import { Section } from '../ui/AdminFrame';
import { LevelSelect, MembersTable } from '../ui/MembersTable';
import { LoadState } from '@/ui/LoadState';
import { blurOnEscape, useWrite } from '../ui/useWrite';

/** An organisation's home: what it is, and its members with their levels (its admins add, change and remove them). */
export function OrganizationHome({ org, onChanged }: { org: Organization; onChanged: () => void }) {
  const { t } = useTranslation();
  const ids = useId();
  const members = useLoad(org.canAdmin ? `admin:org:${org.id}:members` : null, (signal) => organizationsApi.members(org.id, { signal }));
  const [username, setUsername] = useState('');
  const [level, setLevel] = useState<BucketAccess>('member');
  const [removing, setRemoving] = useState<OrganizationMember | null>(null);
  const { busy, run } = useWrite();
  const reload = () => { members.reload(); onChanged(); };

  const add = async (event: FormEvent) => {
    event.preventDefault();
    const name = username.trim();
    if (name && await run(() => organizationsApi.addMember(org.id, name, level), t('admin.members.added', { username: name }))) {
      setUsername('');
      reload();
    }
  };

  return (
    <>
      <Section title={t('admin.org.summary')}>
        <dl className="grid max-w-xl grid-cols-[10rem_1fr] gap-x-4 gap-y-1.5 rounded-md border border-line bg-surface p-4 text-[13px]">
          <dt className="text-fg-muted">{t('admin.orgs.code')}</dt>
          <dd className="font-mono text-xs" data-testid="org-code">{org.code}{org.codeBound && <span className="ml-2 font-sans text-fg-subtle">{t('admin.orgs.codeBound')}</span>}</dd>
          <dt className="text-fg-muted">{t('admin.org.timeZone')}</dt><dd>{org.timeZone}</dd>
          <dt className="text-fg-muted">{t('admin.orgs.flags')}</dt>
          <dd>{[org.isPrivate && t('admin.orgs.private'), org.isFocused && t('admin.orgs.focused'), org.freeEfilm && t('admin.org.freeEfilm')].filter(Boolean).join(' · ') || '—'}</dd>
        </dl>
      </Section>
      {org.canAdmin && (
        <Section title={t('admin.org.members')}
          actions={(
            <form onSubmit={add} className="flex items-center gap-1.5" data-testid="org-member-add">
              <label htmlFor={`${ids}-user`} className="sr-only">{t('admin.members.inviteLabel')}</label>
              <input id={`${ids}-user`} className="input h-7 w-40 text-[13px]" placeholder={t('admin.members.inviteLabel')} value={username} onChange={(e) => setUsername(e.target.value)} onKeyDown={blurOnEscape} />
              <label htmlFor={`${ids}-level`} className="sr-only">{t('admin.members.level')}</label>
              <select id={`${ids}-level`} className="input h-7 w-auto py-0 pr-6 text-[13px]" value={level} onChange={(e) => setLevel(e.target.value as BucketAccess)}>
                {BUCKET_ACCESS.map((l) => <option key={l} value={l}>{t(`admin.level.${l}`)}</option>)}
              </select>
              <button type="submit" className="btn h-7 px-2 text-xs" disabled={busy || !username.trim()}>{t('admin.members.add')}</button>
            </form>
          )}>
          {!members.data ? <LoadState error={members.error} onRetry={members.reload} /> : (
            <MembersTable members={members.data} testId="org-member-table"
              level={(m) => (
                <LevelSelect name={m.name} value={m.accessLevel} levels={BUCKET_ACCESS.map((l) => ({ value: l, label: t(`admin.level.${l}`) }))} disabled={busy}
                  onChange={(value) => void run(() => organizationsApi.setMemberLevel(org.id, m.accountId, value as BucketAccess), t('admin.members.levelChanged', { name: m.name })).then(reload)} />
              )}
              lastLogin={(m) => (m.lastLoginAt ? `${formatDateTime(m.lastLoginAt)}${m.lastLoginIp ? ` · ${m.lastLoginIp}` : ''}` : '—')}
              onRemove={setRemoving} />
          )}
        </Section>
      )}
      <ConfirmDialog open={removing !== null} title={t('admin.members.removeTitle')} confirmLabel={t('admin.members.remove')} busy={busy} focus="cancel"
        onCancel={() => setRemoving(null)}
        onConfirm={() => removing && void run(() => organizationsApi.removeMember(org.id, removing.accountId), t('admin.members.removed', { name: removing.name })).then((ok) => {
          if (ok) { setRemoving(null); reload(); }
        })}>
        <p className="text-[13px]">{t('admin.members.removeOrgBody', { name: removing?.name ?? '', org: org.name })}</p>
      </ConfirmDialog>
    </>
  );
}
