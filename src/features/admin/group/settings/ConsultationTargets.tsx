import { useTranslation } from 'react-i18next';
import type { GroupOrganization } from '../../../../../contract/groups';
import { groupPartsApi } from '../groupApi';
import { BucketChecklist } from './BucketChecklist';

/** The organisations a consultation can be asked of (areas §7 "consultation-targets"). */
export function ConsultationTargets({ groupId, organizations }: { groupId: number; organizations: readonly GroupOrganization[] }) {
  const { t } = useTranslation();
  return (
    <BucketChecklist loadKey={`admin:group:${groupId}:consultation-targets`} testId="group-consultation-targets" organizations={organizations}
      title={t('admin.groupParts.targets.title')} hint={t('admin.groupParts.targets.hint')}
      load={(options) => groupPartsApi.consultationTargets(groupId, options)} save={(ids) => groupPartsApi.setConsultationTargets(groupId, ids)}
      added={(name) => t('admin.groupParts.targets.added', { name })} removed={(name) => t('admin.groupParts.targets.removed', { name })}
      labelOf={(name) => t('admin.groupParts.targets.labelOf', { name })} />
  );
}
