import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { GroupDetail, GroupOrganization } from '../../../../contract/groups';
import { ORGANIZATION_CODE_MAX, ORGANIZATION_CODE_MIN, isOrganizationCode } from '../../../../contract/organizations';
import { useCommands } from '@/lib/commands';
import { refreshSession } from '@/lib/session';
import { useLoad } from '@/lib/useLoad';
import { ConfirmDialog } from '@/ui/ConfirmDialog';
import { Dialog } from '@/ui/Dialog';
import { groupsApi } from '../api';
import { organizationListCommands } from '../commands';
import { organizationPath } from '../paths';
import { Section } from '../ui/AdminFrame';
import { LoadState } from '@/ui/LoadState';
import { useWrite } from '../ui/useWrite';
import { MAIN_CONTROL } from '@/lib/mainFocus';

/** /groups/{id}/organizations: the group's organisations; its admins add one (name and code) or delete one. */
export function GroupOrganizations({ group }: { group: GroupDetail }) {
  const { t } = useTranslation();
  const list = useLoad(`admin:group:${group.id}:orgs`, (signal) => groupsApi.organizations(group.id, { signal }));
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<GroupOrganization | null>(null);
  const { busy, run } = useWrite();
  const isAdmin = group.accessLevel === 1;
  useCommands(organizationListCommands, { add: () => setAdding(true), canAdd: isAdmin && !adding });

  return (
    <Section title={t('admin.group.tabs.organizations')}
      actions={isAdmin && <button type="button" className="btn btn-primary h-7 text-xs" onClick={() => setAdding(true)} data-testid="org-add" title={`${t('admin.orgs.add')} (Alt+N)`}>{t('admin.orgs.add')}</button>}>
      {!list.data ? <LoadState error={list.error} onRetry={list.reload} /> : (
        <table className="w-full max-w-4xl border-collapse rounded-md border border-line bg-surface text-[13px]" data-testid="org-table">
          <thead>
            <tr className="border-b border-line text-left text-xs text-fg-muted">
              <th className="px-3 py-2 font-medium">{t('admin.orgs.name')}</th>
              <th className="px-3 py-2 font-medium">{t('admin.orgs.code')}</th>
              <th className="px-3 py-2 text-right font-medium">{t('admin.orgs.members')}</th>
              <th className="px-3 py-2 font-medium">{t('admin.orgs.flags')}</th>
              <th className="w-24 px-3 py-2" />
            </tr>
          </thead>
          <tbody>
            {list.data.length === 0 && <tr><td colSpan={5} className="px-3 py-6 text-center text-fg-muted">{t('admin.orgs.none')}</td></tr>}
            {list.data.map((o, i) => (
              <tr key={o.id} className="border-b border-line/60 last:border-0" data-org-id={o.id}>
                <td className="px-3 py-1.5"><Link href={organizationPath(group.id, o.id)} {...(i === 0 ? MAIN_CONTROL : {})} className="link">{o.name}</Link></td>
                <td className="px-3 py-1.5 font-mono text-xs">{o.code}{o.codeBound && <span className="ml-1.5 text-fg-subtle" title={t('admin.orgs.codeBound')}>🔒</span>}</td>
                <td className="px-3 py-1.5 text-right tabular-nums">{o.memberCount}</td>
                <td className="px-3 py-1.5 text-xs text-fg-muted">{[o.isPrivate && t('admin.orgs.private'), o.isFocused && t('admin.orgs.focused')].filter(Boolean).join(' · ')}</td>
                <td className="px-3 py-1.5 text-right">
                  {isAdmin && <button type="button" className="btn btn-ghost h-6 px-2 text-xs text-danger" onClick={() => setDeleting(o)}>{t('admin.delete')}</button>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {adding && <AddOrganizationDialog groupId={group.id} onClose={() => setAdding(false)} onAdded={() => { setAdding(false); list.reload(); refreshSession({ force: true }); }} />}
      <ConfirmDialog open={deleting !== null} title={t('admin.orgs.deleteTitle')} confirmLabel={t('admin.delete')} busy={busy} focus="cancel"
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && void run(() => groupsApi.deleteOrganization(group.id, deleting.id), t('admin.orgs.deleted', { name: deleting.name })).then((ok) => {
          if (ok) { setDeleting(null); list.reload(); }
        })}>
        <p className="text-[13px]">{t('admin.orgs.deleteBody', { name: deleting?.name ?? '' })}</p>
      </ConfirmDialog>
    </Section>
  );
}

function AddOrganizationDialog({ groupId, onClose, onAdded }: { groupId: number; onClose: () => void; onAdded: () => void }) {
  const { t } = useTranslation();
  const ids = useId();
  const [name, setName] = useState('');
  const [code, setCode] = useState('');
  const [isPrivate, setPrivate] = useState(false);
  const { busy, run } = useWrite();
  const codeOk = isOrganizationCode(code);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim() || !codeOk) return;
    if (await run(() => groupsApi.addOrganization(groupId, { name: name.trim(), code, isPrivate }), t('admin.orgs.added', { name: name.trim() }))) onAdded();
  };
  return (
    <Dialog open title={t('admin.orgs.add')} onCancel={busy ? undefined : onClose} width={440}>
      <form onSubmit={submit} className="flex flex-col gap-3 p-4" data-testid="org-add-form">
        <div>
          <label htmlFor={`${ids}-name`} className="mb-1 block text-[13px] font-medium">{t('admin.orgs.name')}</label>
          <input id={`${ids}-name`} className="input" value={name} autoFocus maxLength={128} onChange={(e) => setName(e.target.value)} />
        </div>
        <div>
          <label htmlFor={`${ids}-code`} className="mb-1 block text-[13px] font-medium">{t('admin.orgs.code')}</label>
          <input id={`${ids}-code`} className="input font-mono" value={code} maxLength={ORGANIZATION_CODE_MAX} onChange={(e) => setCode(e.target.value)}
            aria-invalid={code !== '' && !codeOk} aria-describedby={`${ids}-code-hint`} />
          <p id={`${ids}-code-hint`} className={`mt-1 text-xs ${code !== '' && !codeOk ? 'text-danger' : 'text-fg-muted'}`}>
            {t('admin.orgs.codeRule', { min: ORGANIZATION_CODE_MIN, max: ORGANIZATION_CODE_MAX })}
          </p>
        </div>
        <label className="flex items-center gap-2 text-[13px]">
          <input type="checkbox" checked={isPrivate} onChange={(e) => setPrivate(e.target.checked)} />
          {t('admin.orgs.private')} <span className="text-xs text-fg-muted">— {t('admin.orgs.privateHint')}</span>
        </label>
        <div className="flex justify-end gap-2 pt-1">
          <button type="button" className="btn" onClick={onClose} disabled={busy}>{t('common.cancel')}</button>
          <button type="submit" className="btn btn-primary" disabled={busy || !name.trim() || !codeOk}>{t('admin.orgs.addSubmit')}</button>
        </div>
      </form>
    </Dialog>
  );
}
