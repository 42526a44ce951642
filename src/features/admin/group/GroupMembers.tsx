import { useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { GroupDetail, GroupMember } from '../../../../contract/groups';
import { useCommands } from '@/lib/commands';
import { formatDateTime } from '@/lib/format';
import { useLoad } from '@/lib/useLoad';
import { ConfirmDialog } from '@/ui/ConfirmDialog';
import { groupsApi } from '../api';
import { memberListCommands } from '../commands';
import { Section } from '../ui/AdminFrame';
import { LoadState } from '../ui/states';
import { blurOnEscape, useWrite } from '../ui/useWrite';

/**
 * /groups/{id}/members: find (/), invite an existing account by username, change a member's level, remove one (asks
 * first). Only the group's admins see everyone (areas §6); a member sees the admins and themself.
 */
export function GroupMembers({ group }: { group: GroupDetail }) {
  const { t } = useTranslation();
  const ids = useId();
  const members = useLoad(`admin:group:${group.id}:members`, (signal) => groupsApi.members(group.id, { signal }));
  const [query, setQuery] = useState('');
  const [invite, setInvite] = useState('');
  const [removing, setRemoving] = useState<GroupMember | null>(null);
  const { busy, run } = useWrite();
  const findRef = useRef<HTMLInputElement>(null);
  const inviteRef = useRef<HTMLInputElement>(null);
  const isAdmin = group.accessLevel === 1;
  useCommands(memberListCommands, { find: () => findRef.current?.select(), invite: () => inviteRef.current?.focus(), canInvite: isAdmin });

  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return (members.data ?? []).filter((m) => !q || m.name.toLowerCase().includes(q) || m.username.toLowerCase().includes(q));
  }, [members.data, query]);

  const sendInvite = async (event: FormEvent) => {
    event.preventDefault();
    const username = invite.trim();
    if (username && await run(() => groupsApi.invite(group.id, username, 0), t('admin.members.invited', { username }))) {
      setInvite('');
      members.reload();
    }
  };

  return (
    <Section title={t('admin.group.tabs.members')}
      actions={(
        <div className="flex items-center gap-2">
          <label htmlFor={`${ids}-find`} className="sr-only">{t('admin.members.find')}</label>
          <input id={`${ids}-find`} ref={findRef} type="search" className="input h-7 w-48 text-[13px]" placeholder={`${t('admin.members.find')} (/)`}
            value={query} onChange={(e) => setQuery(e.target.value)} onKeyDown={(e) => { if (e.key === 'Escape') { setQuery(''); e.currentTarget.blur(); } }} />
          {isAdmin && (
            <form onSubmit={sendInvite} className="flex items-center gap-1.5">
              <label htmlFor={`${ids}-invite`} className="sr-only">{t('admin.members.inviteLabel')}</label>
              <input id={`${ids}-invite`} ref={inviteRef} className="input h-7 w-40 text-[13px]" placeholder={t('admin.members.inviteLabel')} value={invite} onChange={(e) => setInvite(e.target.value)} onKeyDown={blurOnEscape} />
              <button type="submit" className="btn h-7 px-2 text-xs" disabled={busy || !invite.trim()}>{t('admin.members.invite')}</button>
            </form>
          )}
        </div>
      )}>
      {!members.data ? <LoadState error={members.error} onRetry={members.reload} /> : (
        <table className="w-full max-w-5xl border-collapse rounded-md border border-line bg-surface text-[13px]" data-testid="member-table">
          <thead>
            <tr className="border-b border-line text-left text-xs text-fg-muted">
              <th className="px-3 py-2 font-medium">{t('admin.members.name')}</th>
              <th className="px-3 py-2 font-medium">{t('admin.members.username')}</th>
              <th className="px-3 py-2 font-medium">{t('admin.members.level')}</th>
              <th className="px-3 py-2 font-medium">{t('admin.members.lastLogin')}</th>
              <th className="w-24 px-3 py-2" />
            </tr>
          </thead>
          <tbody>
            {shown.map((m) => (
              <tr key={m.accountId} className="border-b border-line/60 last:border-0" data-account-id={m.accountId}>
                <td className="px-3 py-1.5">{m.name}{m.status === 1 && <span className="ml-1.5 text-xs text-danger">{t('admin.members.disabled')}</span>}</td>
                <td className="px-3 py-1.5 font-mono text-xs">{m.username}</td>
                <td className="px-3 py-1.5">
                  {isAdmin ? (
                    <select aria-label={t('admin.members.levelOf', { name: m.name })} className="input h-7 w-auto py-0 pr-6 text-[13px]" value={m.accessLevel} disabled={busy}
                      onChange={(e) => void run(() => groupsApi.setMemberLevel(group.id, m.accountId, Number(e.target.value) as 0 | 1), t('admin.members.levelChanged', { name: m.name })).then(members.reload)}>
                      <option value={0}>{t('admin.level.groupMember')}</option>
                      <option value={1}>{t('admin.level.groupAdmin')}</option>
                    </select>
                  ) : m.accessLevel === 1 ? t('admin.level.groupAdmin') : t('admin.level.groupMember')}
                </td>
                <td className="px-3 py-1.5 text-xs text-fg-muted">{m.lastLoginAt ? formatDateTime(m.lastLoginAt) : '—'}</td>
                <td className="px-3 py-1.5 text-right">
                  {isAdmin && <button type="button" className="btn btn-ghost h-6 px-2 text-xs text-danger" onClick={() => setRemoving(m)}>{t('admin.members.remove')}</button>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ConfirmDialog open={removing !== null} title={t('admin.members.removeTitle')} confirmLabel={t('admin.members.remove')} busy={busy} focus="cancel"
        onCancel={() => setRemoving(null)}
        onConfirm={() => removing && void run(() => groupsApi.removeMember(group.id, removing.accountId), t('admin.members.removed', { name: removing.name })).then((ok) => {
          if (ok) { setRemoving(null); members.reload(); }
        })}>
        <p className="text-[13px]">{t('admin.members.removeBody', { name: removing?.name ?? '' })}</p>
      </ConfirmDialog>
    </Section>
  );
}
