import { useTranslation } from 'react-i18next';
import type { TemplateNode, TemplateUpsertInput } from '../../../contract/reports';
import { errorText } from '@/lib/errorText';
import { isSessionEndingError } from '@/lib/http';
import { Alert } from '@/ui/Alert';
import { Spinner } from '@/ui/Spinner';
import type { TreeOwner } from './api';

export const ownerFields = (owner: TreeOwner) => (owner.bucketId !== undefined ? { bucketId: owner.bucketId } : { groupId: owner.groupId });

/** The full body of an upsert for `node`, with `change` over it (the server writes every field it is given). */
export const upsertBody = (owner: TreeOwner, node: TemplateNode, change: Partial<TemplateUpsertInput>): TemplateUpsertInput => ({
  id: node.id, ...ownerFields(owner), parentId: node.parentId, name: node.name, isFolder: node.isFolder,
  modality: node.modality, bodyPart: node.bodyPart, finding: node.finding, diagnosis: node.diagnosis, sort: node.sort, ...change,
});

/** The tree's place before it is in: the failure with a retry, or the spinner (a session that is ending shows the spinner). */
export function TreeLoadState({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  return error && !isSessionEndingError(error) ? (
    <div className="flex flex-col gap-2 p-3">
      <Alert>{errorText(t, error)}</Alert>
      <button type="button" className="btn self-start" onClick={onRetry}>{t('common.retry')}</button>
    </div>
  ) : (
    <div className="flex flex-1 items-center justify-center"><Spinner label={t('common.loading')} /></div>
  );
}
