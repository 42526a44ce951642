import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'wouter';
import { CommandScope, useCommands } from '@/lib/commands';
import { navigate, useSession } from '@/lib/session';
import { useLoad } from '@/lib/useLoad';
import { groupsApi, organizationsApi } from '../api';
import { organizationCommands } from '../commands';
import { ORGANIZATION_TABS, groupPath, groupsPath, idOf, organizationPath, type OrganizationTab } from '../paths';
import { AdminFrame } from '../ui/AdminFrame';
import { LoadState } from '@/ui/LoadState';
import { OrganizationHome } from './OrganizationHome';
import { OrganizationProcedures } from './OrganizationProcedures';
import { OrganizationRoles } from './OrganizationRoles';
import { OrganizationSettings } from './OrganizationSettings';
import { PrintTemplatesTab } from './printTemplates/PrintTemplatesTab';
import { Hl7Tab } from '@/features/hl7';
import { OrganizationSampleGraphs } from './sampleGraphs/SampleGraphs';

/** /groups/{groupId}/organizations/{organizationId}[/roles|/settings|/procedures] (areas §2). */
export default function OrganizationPage() {
  const { t } = useTranslation();
  const params = useParams<{ groupId: string; organizationId: string }>();
  const last = useLocation()[0].split('/').at(-1) ?? '';
  const groupId = idOf(params.groupId);
  const orgId = idOf(params.organizationId);
  const tab: OrganizationTab = (ORGANIZATION_TABS as readonly string[]).includes(last) ? (last as OrganizationTab) : 'index';
  const org = useLoad(orgId === null ? null : `admin:org:${orgId}`, (signal) => organizationsApi.get(orgId!, { signal }));
  const group = useLoad(groupId === null ? null : `admin:group:${groupId}`, (signal) => groupsApi.get(groupId!, { signal }));
  const canAdmin = org.data?.canAdmin ?? false;
  const canManageGraphs = useSession().can('manage_sample_graph', orgId ?? undefined);
  useCommands(organizationCommands, { goTab: (to: OrganizationTab) => groupId !== null && orgId !== null && navigate(organizationPath(groupId, orgId, to)), canAdmin, canManageGraphs });

  if (groupId === null || orgId === null) return <div className="p-6"><LoadState error={{ code: 'NotFound' }} onRetry={() => navigate(groupsPath())} /></div>;
  const tabs = ORGANIZATION_TABS.filter((id) => canAdmin || id === 'index' || (id === 'sample-graphs' && canManageGraphs)).map((id) => ({ id, label: t(`admin.org.tabs.${id}`), href: organizationPath(groupId, orgId, id), key: String(ORGANIZATION_TABS.indexOf(id) + 1) }));
  return (
    <CommandScope scope="organization">
      <AdminFrame title={org.data?.name ?? t('common.loading')} tabs={tabs} current={tab}
        crumbs={[
          { label: t('admin.groups.title'), href: groupsPath() },
          { label: group.data?.displayName ?? '…', href: groupPath(groupId) },
          { label: t('admin.group.tabs.organizations'), href: groupPath(groupId, 'organizations') },
          { label: org.data?.name ?? '…' },
        ]}>
        {!org.data ? <LoadState error={org.error} onRetry={org.reload} /> : (
          tab === 'roles' && canAdmin ? <OrganizationRoles org={org.data} />
            : tab === 'settings' && canAdmin ? <OrganizationSettings org={org.data} onChanged={org.reload} />
              : tab === 'procedures' && canAdmin ? <OrganizationProcedures org={org.data} />
              : tab === 'print-templates' && canAdmin ? <PrintTemplatesTab org={org.data} />
              : tab === 'hl7' && canAdmin ? <Hl7Tab orgId={org.data.id} />
              : tab === 'sample-graphs' && (canAdmin || canManageGraphs) ? <OrganizationSampleGraphs org={org.data} canManage={canAdmin || canManageGraphs} />
                : <OrganizationHome org={org.data} onChanged={org.reload} />
        )}
      </AdminFrame>
    </CommandScope>
  );
}
