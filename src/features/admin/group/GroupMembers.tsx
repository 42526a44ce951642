import { useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Filter } from '../../../../contract/common';
import type { GroupDetail, GroupMember } from '../../../../contract/groups';
import { useCommands } from '@/lib/commands';
import { formatDateTime } from '@/lib/format';
import { useLoad } from '@/lib/useLoad';
import { ConfirmDialog } from '@/ui/ConfirmDialog';
import { groupsApi } from '../api';
import { memberListCommands } from '../commands';
import { Section } from '../ui/AdminFrame';
import { LevelSelect, MembersTable } from '../ui/MembersTable';
import { LoadState } from '@/ui/LoadState';
import { useTypedQuery } from '../ui/useTypedQuery';
import { blurOnEscape, useWrite } from '../ui/useWrite';
import { CreateAccountDialog } from './CreateAccountDialog';
import { groupPartsApi } from './groupApi';

/** Members per page, as the worklist's pages. */
const PAGE = 20;
type FindField = 'name' | 'username';
const PAGER = 'btn h-6 px-2 text-xs aria-disabled:cursor-default aria-disabled:opacity-50';

/**
 * /groups/{id}/members: find (/) by name or username, invite an existing account by username, create a new account
 * straight into the group, change a member's level, remove one (asks first). The group's admins page through every
 * member (members/query, 20 a page); a member sees only the admins and themself (areas §6), found in place.
 */
export function GroupMembers({ group }: { group: GroupDetail }) {
  const { t } = useTranslation();
  const ids = useId();
  const isAdmin = group.accessLevel === 1;
  const { typed, setTyped, query, setQuery, page, setPage } = useTypedQuery();
  const [field, setField] = useState<FindField>('name');
  const [invite, setInvite] = useState('');
  const [creating, setCreating] = useState(false);
  const [removing, setRemoving] = useState<GroupMember | null>(null);
  const { busy, run } = useWrite();
  const findRef = useRef<HTMLInputElement>(null);
  const inviteRef = useRef<HTMLInputElement>(null);
  useCommands(memberListCommands, { find: () => findRef.current?.select(), invite: () => inviteRef.current?.focus(), create: () => setCreating(true), canInvite: isAdmin });

  const filters: Filter[] = query ? [{ field, operator: 'like', values: [query] }] : [];
  const paged = useLoad(isAdmin ? `admin:group:${group.id}:members:${field}:${query}:${page}` : null,
    (signal) => groupPartsApi.queryMembers(group.id, { filters, skip: page * PAGE, limit: PAGE }, { signal }));
  const plain = useLoad(isAdmin ? null : `admin:group:${group.id}:members`, (signal) => groupsApi.members(group.id, { signal }));
  const shown = useMemo(() => {
    if (isAdmin) return paged.data?.items ?? null;
    const q = query.toLowerCase();
    return plain.data ? plain.data.filter((m) => !q || m[field].toLowerCase().includes(q)) : null;
  }, [isAdmin, paged.data, plain.data, query, field]);
  const list = isAdmin ? paged : plain;
  const total = isAdmin ? paged.data?.total ?? 0 : shown?.length ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE));
  const reload = list.reload;

  const sendInvite = async (event: FormEvent) => {
    event.preventDefault();
    const username = invite.trim();
    if (username && await run(() => groupsApi.invite(group.id, username, 0), t('admin.members.invited', { username }))) {
      setInvite('');
      reload();
    }
  };

  return (
    <Section title={t('admin.group.tabs.members')}
      actions={(
        <div className="flex flex-wrap items-center justify-end gap-2">
          <div className="flex items-center">
            <label htmlFor={`${ids}-field`} className="sr-only">{t('admin.groupParts.members.findBy')}</label>
            <select id={`${ids}-field`} className="input h-7 w-auto rounded-r-none border-r-0 py-0 pr-6 text-[13px]" value={field} data-testid="member-find-field"
              onChange={(e) => { setField(e.target.value === 'username' ? 'username' : 'name'); setPage(0); }}>
              <option value="name">{t('admin.members.name')}</option>
              <option value="username">{t('admin.members.username')}</option>
            </select>
            <label htmlFor={`${ids}-find`} className="sr-only">{t('admin.members.find')}</label>
            <input id={`${ids}-find`} ref={findRef} type="search" className="input h-7 w-44 rounded-l-none text-[13px]" placeholder={`${t('admin.members.find')} (/)`}
              value={typed} onChange={(e) => setTyped(e.target.value)} data-testid="member-find"
              onKeyDown={(e) => { if (e.key === 'Escape') { setTyped(''); e.currentTarget.blur(); } }} />
          </div>
          {isAdmin && (
            <>
              <form onSubmit={sendInvite} className="flex items-center gap-1.5">
                <label htmlFor={`${ids}-invite`} className="sr-only">{t('admin.members.inviteLabel')}</label>
                <input id={`${ids}-invite`} ref={inviteRef} className="input h-7 w-36 text-[13px]" placeholder={t('admin.members.inviteLabel')} value={invite} onChange={(e) => setInvite(e.target.value)} onKeyDown={blurOnEscape} />
                <button type="submit" className="btn h-7 px-2 text-xs" disabled={busy || !invite.trim()}>{t('admin.members.invite')}</button>
              </form>
              <button type="button" className="btn btn-primary h-7 px-2 text-xs" onClick={() => setCreating(true)} data-testid="account-create">
                {t('admin.groupParts.members.createAccount')}
              </button>
            </>
          )}
        </div>
      )}>
      {!shown ? <LoadState error={list.error} onRetry={reload} /> : (
        <>
          <MembersTable members={shown} testId="member-table" stale={list.stale} empty={t('admin.groupParts.members.none')} actionsLabel={t('admin.groupParts.actions')}
            nameNote={(m) => m.status === 1 && <span className="ml-1.5 text-xs text-danger">{t('admin.members.disabled')}</span>}
            level={(m) => (isAdmin ? (
              <LevelSelect name={m.name} value={m.accessLevel} levels={[{ value: 0, label: t('admin.level.groupMember') }, { value: 1, label: t('admin.level.groupAdmin') }]} disabled={busy}
                onChange={(value) => void run(() => groupsApi.setMemberLevel(group.id, m.accountId, Number(value) as 0 | 1), t('admin.members.levelChanged', { name: m.name })).then(reload)} />
            ) : m.accessLevel === 1 ? t('admin.level.groupAdmin') : t('admin.level.groupMember'))}
            lastLogin={(m) => (m.lastLoginAt ? formatDateTime(m.lastLoginAt) : '—')} tabularLogin
            onRemove={isAdmin ? setRemoving : undefined} />
          {isAdmin && (
            <nav aria-label={t('admin.groupParts.members.pages')} className="mt-2 flex max-w-5xl items-center justify-end gap-2 text-xs text-fg-muted" data-testid="member-pager">
              <span className="mr-auto tabular-nums" data-testid="member-total">{t('admin.groupParts.members.total', { count: total })}</span>
              {/* aria-disabled, not disabled: the focus stays on the button at the first or last page. */}
              <button type="button" className={PAGER} aria-disabled={page === 0} onClick={() => page > 0 && setPage((p) => p - 1)}>{t('admin.accounts.previous')}</button>
              <span className="tabular-nums" data-testid="member-page">{page + 1} / {pages}</span>
              <button type="button" className={PAGER} aria-disabled={page + 1 >= pages} onClick={() => page + 1 < pages && setPage((p) => p + 1)}>{t('admin.accounts.next')}</button>
            </nav>
          )}
        </>
      )}
      {creating && (
        <CreateAccountDialog groupId={group.id} onClose={() => setCreating(false)}
          onCreated={(member) => { setCreating(false); setField('username'); setTyped(member.username); setQuery(member.username); setPage(0); }} />
      )}
      <ConfirmDialog open={removing !== null} title={t('admin.members.removeTitle')} confirmLabel={t('admin.members.remove')} busy={busy} focus="cancel"
        onCancel={() => setRemoving(null)}
        onConfirm={() => removing && void run(() => groupsApi.removeMember(group.id, removing.accountId), t('admin.members.removed', { name: removing.name })).then((ok) => {
          if (ok) {
            setRemoving(null);
            // The last row of a later page gone: the page before it.
            if (shown?.length === 1 && page > 0) setPage((p) => p - 1); else reload();
          }
        })}>
        <p className="text-[13px]">{t('admin.members.removeBody', { name: removing?.name ?? '' })}</p>
      </ConfirmDialog>
    </Section>
  );
}
