import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'wouter';
import { CommandScope, useCommands } from '@/lib/commands';
import { navigate } from '@/lib/session';
import { useLoad } from '@/lib/useLoad';
import { groupsApi } from '../api';
import { groupCommands } from '../commands';
import { GROUP_TABS, groupPath, groupsPath, idOf, type GroupTab } from '../paths';
import { AdminFrame } from '../ui/AdminFrame';
import { LoadState } from '@/ui/LoadState';
import { GroupHome } from './GroupHome';
import { GroupMembers } from './GroupMembers';
import { GroupOrganizations } from './GroupOrganizations';
import { GroupSettings } from './GroupSettings';

/** /groups/{groupId}[/organizations|/members|/settings] (areas §2): a group's home, organisations, members, settings. */
export default function GroupPage() {
  const { t } = useTranslation();
  const params = useParams<{ groupId: string }>();
  const last = useLocation()[0].split('/').at(-1) ?? '';
  const groupId = idOf(params.groupId);
  const tab: GroupTab = (GROUP_TABS as readonly string[]).includes(last) ? (last as GroupTab) : 'index';
  const group = useLoad(groupId === null ? null : `admin:group:${groupId}`, (signal) => groupsApi.get(groupId!, { signal }));
  const isAdmin = group.data?.accessLevel === 1;
  useCommands(groupCommands, { goTab: (to: GroupTab) => groupId !== null && navigate(groupPath(groupId, to)), isAdmin });

  if (groupId === null) return <div className="p-6"><LoadState error={{ code: 'NotFound' }} onRetry={() => navigate(groupsPath())} /></div>;
  const tabs = GROUP_TABS.filter((id) => isAdmin || id !== 'settings').map((id) => ({ id, label: t(`admin.group.tabs.${id}`), href: groupPath(groupId, id), key: String(GROUP_TABS.indexOf(id) + 1) }));
  return (
    <CommandScope scope="group">
      <AdminFrame crumbs={[{ label: t('admin.groups.title'), href: groupsPath() }, { label: group.data?.displayName ?? '…' }]}
        title={group.data?.displayName ?? t('common.loading')} tabs={tabs} current={tab}>
        {!group.data ? <LoadState error={group.error} onRetry={group.reload} /> : (
          tab === 'organizations' ? <GroupOrganizations group={group.data} />
            : tab === 'members' ? <GroupMembers group={group.data} />
              : tab === 'settings' && isAdmin ? <GroupSettings group={group.data} onChanged={group.reload} />
                : <GroupHome group={group.data} />
        )}
      </AdminFrame>
    </CommandScope>
  );
}
