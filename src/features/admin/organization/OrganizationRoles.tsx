import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Action } from '../../../../contract/actions';
import type { Organization, Role } from '../../../../contract/organizations';
import { useCommands } from '@/lib/commands';
import { MAIN_CONTROL } from '@/lib/mainFocus';
import { refreshSession } from '@/lib/session';
import { useLoad } from '@/lib/useLoad';
import { ConfirmDialog } from '@/ui/ConfirmDialog';
import { organizationsApi } from '../api';
import { roleCommands } from '../commands';
import { Section } from '../ui/AdminFrame';
import { RoleGrid } from '../ui/RoleGrid';
import { LoadState } from '@/ui/LoadState';
import { blurOnEscape, useWrite } from '../ui/useWrite';

/**
 * /groups/{g}/organizations/{o}/roles: custom roles as a role × action grid (ticked by keyboard, saved at once) and who
 * holds each role. A change holds from the member's next request (the server reads rights on every request).
 */
export function OrganizationRoles({ org }: { org: Organization }) {
  const { t } = useTranslation();
  const ids = useId();
  const roles = useLoad(`admin:org:${org.id}:roles`, (signal) => organizationsApi.roles(org.id, { signal }));
  const members = useLoad(`admin:org:${org.id}:members`, (signal) => organizationsApi.members(org.id, { signal }));
  const [name, setName] = useState('');
  const nameRef = useRef<HTMLInputElement>(null);
  useCommands(roleCommands, { newRole: () => nameRef.current?.focus() });
  const [deleting, setDeleting] = useState<Role | null>(null);
  const { busy, run } = useWrite();
  const changed = () => { roles.reload(); refreshSession({ force: true }); };

  const create = async (event: FormEvent) => {
    event.preventDefault();
    const value = name.trim();
    if (value && await run(() => organizationsApi.createRole(org.id, { name: value, actions: [] }), t('admin.roles.created', { name: value }))) {
      setName('');
      changed();
    }
  };
  const toggle = (role: Role, action: Action, on: boolean) => {
    const actions = on ? [...role.actions, action] : role.actions.filter((a) => a !== action);
    // The tick shows at once; the list is read again after the save (or the failure) either way.
    roles.put((list) => list?.map((r) => (r.id === role.id ? { ...r, actions } : r)) ?? list);
    void run(() => organizationsApi.updateRole(org.id, role.id, { name: role.name, actions })).then(changed);
  };
  const setHolder = (role: Role, accountId: number, on: boolean) => {
    const accountIds = on ? [...role.accountIds, accountId] : role.accountIds.filter((id) => id !== accountId);
    roles.put((list) => list?.map((r) => (r.id === role.id ? { ...r, accountIds } : r)) ?? list);
    void run(() => organizationsApi.setRoleUsers(org.id, role.id, accountIds)).then(changed);
  };

  if (!roles.data) return <LoadState error={roles.error} onRetry={roles.reload} />;
  return (
    <>
      <Section title={t('admin.roles.title')} hint={t('admin.roles.hint')}
        actions={(
          <form onSubmit={create} className="flex items-center gap-1.5" data-testid="role-create">
            <label htmlFor={`${ids}-name`} className="sr-only">{t('admin.roles.name')}</label>
            <input id={`${ids}-name`} ref={nameRef} {...(roles.data.length === 0 ? MAIN_CONTROL : {})} className="input h-7 w-44 text-[13px]" placeholder={`${t('admin.roles.name')} (Alt+N)`} value={name} maxLength={64} onChange={(e) => setName(e.target.value)} onKeyDown={blurOnEscape} />
            <button type="submit" className="btn btn-primary h-7 px-2 text-xs" disabled={busy || !name.trim()}>{t('admin.roles.create')}</button>
          </form>
        )}>
        {roles.data.length === 0 ? <p className="text-[13px] text-fg-muted">{t('admin.roles.none')}</p> : <RoleGrid roles={roles.data} busy={busy} onToggle={toggle} />}
      </Section>
      {roles.data.length > 0 && (
        <Section title={t('admin.roles.holders')} hint={t('admin.roles.holdersHint')}>
          <div className="grid max-w-5xl grid-cols-[repeat(auto-fill,minmax(15rem,1fr))] gap-3">
            {roles.data.map((role) => (
              <fieldset key={role.id} className="rounded-md border border-line bg-surface p-3" data-testid="role-holders" data-role-id={role.id}>
                <legend className="px-1 text-[13px] font-medium">{role.name}</legend>
                <ul className="flex flex-col gap-1">
                  {(members.data ?? []).map((m) => (
                    <li key={m.accountId}>
                      <label className="flex items-center gap-2 text-[13px]">
                        <input type="checkbox" checked={role.accountIds.includes(m.accountId)} disabled={busy} data-username={m.username}
                          onChange={(e) => setHolder(role, m.accountId, e.target.checked)} />
                        {m.name} <span className="font-mono text-xs text-fg-subtle">{m.username}</span>
                      </label>
                    </li>
                  ))}
                </ul>
                <div className="mt-2 text-right">
                  <button type="button" className="btn btn-ghost h-6 px-2 text-xs text-danger" onClick={() => setDeleting(role)}>{t('admin.roles.delete')}</button>
                </div>
              </fieldset>
            ))}
          </div>
        </Section>
      )}
      <ConfirmDialog open={deleting !== null} title={t('admin.roles.deleteTitle')} confirmLabel={t('admin.delete')} busy={busy} focus="cancel"
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && void run(() => organizationsApi.deleteRole(org.id, deleting.id), t('admin.roles.deleted', { name: deleting.name })).then((ok) => {
          if (ok) { setDeleting(null); changed(); }
        })}>
        <p className="text-[13px]">{t('admin.roles.deleteBody', { name: deleting?.name ?? '', count: deleting?.accountIds.length ?? 0 })}</p>
      </ConfirmDialog>
    </>
  );
}
