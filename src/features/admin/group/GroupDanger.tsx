import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GroupDetail } from '../../../../contract/groups';
import { navigate, refreshSession } from '@/lib/session';
import { ConfirmDialog } from '@/ui/ConfirmDialog';
import { groupsApi } from '../api';
import { groupsPath } from '../paths';
import { Section } from '../ui/AdminFrame';
import { useWrite } from '../ui/useWrite';

type Pending = 'quit' | 'delete' | null;

/**
 * Leaving the group (any member; the last admin is refused by the server) and deleting it (its admins; refused while
 * an organisation holds exams or other records). Both ask first; afterwards the session is read again, so the navbar
 * loses what came with the group, and the list of groups opens.
 */
export function GroupDanger({ group }: { group: GroupDetail }) {
  const { t } = useTranslation();
  const { busy, run } = useWrite();
  const [pending, setPending] = useState<Pending>(null);
  const isAdmin = group.accessLevel === 1;
  const confirm = async () => {
    const call = pending === 'delete' ? () => groupsApi.remove(group.id) : () => groupsApi.quit(group.id);
    const done = pending === 'delete' ? t('admin.group.deleted', { name: group.displayName }) : t('admin.group.left', { name: group.displayName });
    if (!await run(call, done)) return;
    setPending(null);
    refreshSession({ force: true });
    navigate(groupsPath());
  };
  return (
    <Section title={t('admin.group.membership')} testId="group-danger">
      <div className="flex max-w-xl flex-wrap items-center gap-2">
        <button type="button" className="btn h-7 px-3 text-xs" onClick={() => setPending('quit')} data-testid="group-quit">{t('admin.group.quit')}</button>
        {isAdmin && (
          <button type="button" className="btn h-7 border-danger px-3 text-xs text-danger" onClick={() => setPending('delete')} data-testid="group-delete">{t('admin.group.delete')}</button>
        )}
      </div>
      <ConfirmDialog open={pending !== null} tone="danger" focus="cancel" busy={busy} testId="group-danger-confirm"
        title={pending === 'delete' ? t('admin.group.deleteTitle') : t('admin.group.quitTitle')}
        confirmLabel={pending === 'delete' ? t('admin.group.delete') : t('admin.group.quit')}
        onCancel={() => setPending(null)} onConfirm={() => void confirm()}>
        <p className="text-[13px]">{pending === 'delete' ? t('admin.group.deleteBody', { name: group.displayName }) : t('admin.group.quitBody', { name: group.displayName })}</p>
      </ConfirmDialog>
    </Section>
  );
}
