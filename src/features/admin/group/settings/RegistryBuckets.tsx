import { useTranslation } from 'react-i18next';
import type { GroupOrganization } from '../../../../../contract/groups';
import { groupPartsApi } from '../groupApi';
import { BucketChecklist } from './BucketChecklist';

/** The organisations that keep a registry desk (areas §7 "registry-buckets"): where patients are registered for exams. */
export function RegistryBuckets({ groupId, organizations }: { groupId: number; organizations: readonly GroupOrganization[] }) {
  const { t } = useTranslation();
  return (
    <BucketChecklist loadKey={`admin:group:${groupId}:registry-buckets`} testId="group-registry-desks" organizations={organizations}
      title={t('admin.groupParts.desks.title')} hint={t('admin.groupParts.desks.hint')}
      load={(options) => groupPartsApi.registryBuckets(groupId, options)} save={(ids) => groupPartsApi.setRegistryBuckets(groupId, ids)}
      added={(name) => t('admin.groupParts.desks.added', { name })} removed={(name) => t('admin.groupParts.desks.removed', { name })}
      labelOf={(name) => t('admin.groupParts.desks.labelOf', { name })} />
  );
}
