import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useSession } from '@/lib/session';
import { useLoad } from '@/lib/useLoad';
import { groupsApi } from './api';
import { groupPath } from './paths';
import { LoadState } from '@/ui/LoadState';
import { MAIN_CONTROL } from '@/lib/mainFocus';

/** /groups (areas §2): the account's groups, and "create a group" for an account allowed to (and in none yet). */
export default function GroupsPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const groups = useLoad('admin:groups', (signal) => groupsApi.mine({ signal }));
  const mayCreate = Boolean(user?.canCreateGroup) && groups.data?.length === 0;
  return (
    <div className="mx-auto w-full max-w-4xl px-6 py-6">
      <div className="mb-4 flex items-center gap-3">
        <h1 className="text-base font-semibold">{t('admin.groups.title')}</h1>
        {mayCreate && <Link href="/groups/create" className="btn btn-primary ml-auto" data-testid="group-create-link">{t('admin.groups.create')}</Link>}
      </div>
      {!groups.data ? <LoadState error={groups.error} onRetry={groups.reload} /> : groups.data.length === 0 ? (
        <p className="text-[13px] text-fg-muted">{t('admin.groups.none')}</p>
      ) : (
        <ul className="divide-y divide-line rounded-md border border-line bg-surface" data-testid="group-list">
          {groups.data.map((g, i) => (
            <li key={g.id}>
              <Link href={groupPath(g.id)} {...(i === 0 ? MAIN_CONTROL : {})} className="flex items-center gap-3 px-4 py-3 hover:bg-sunken">
                <span className="font-medium">{g.displayName}</span>
                {g.domainName && <span className="text-xs text-fg-muted">{g.domainName}</span>}
                <span className="ml-auto rounded border border-line px-1.5 py-0.5 text-xs text-fg-muted">
                  {g.accessLevel === 1 ? t('admin.level.groupAdmin') : t('admin.level.groupMember')}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
