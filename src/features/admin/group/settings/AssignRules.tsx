import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { AssignRule, GroupOrganization, GroupRad } from '../../../../../contract/groups';
import { useLoad } from '@/lib/useLoad';
import { Section } from '../../ui/AdminFrame';
import { LoadState } from '@/ui/LoadState';
import { DeleteConfirm, RowActions, useRowActions } from '../../ui/rowActions';
import { groupPartsApi } from '../groupApi';
import { RuleDialog } from './RuleDialog';
import { HEAD_ROW, ROW, TABLE, TD, TH } from './parts';

/**
 * The group's assign rules (areas §3): when an exam arrives, the first rule of its organisation (smallest priority)
 * whose modality matches gives it its reporter, or the least loaded of its members. Added and changed in a dialog;
 * deleting asks first.
 */
export function AssignRules({ groupId, organizations, rads }: { groupId: number; organizations: readonly GroupOrganization[]; rads: readonly GroupRad[] }) {
  const { t } = useTranslation();
  const list = useLoad(`admin:group:${groupId}:rules`, (signal) => groupPartsApi.rules(groupId, { signal }));
  const addRef = useRef<HTMLButtonElement>(null);
  const rows = useRowActions<AssignRule, AssignRule | 'new'>({ reload: list.reload, focusAfterDelete: addRef });
  const { editing, setEditing } = rows;
  const orgName = (bucketId: number) => organizations.find((o) => o.id === bucketId)?.name ?? `#${bucketId}`;
  const radName = (id: number) => rads.find((r) => r.id === id)?.name ?? `#${id}`;

  return (
    <Section title={t('admin.groupParts.rules.title')} hint={t('admin.groupParts.rules.hint')} testId="group-rules"
      actions={<button type="button" className="btn btn-primary h-7 text-xs" ref={addRef} onClick={() => setEditing('new')} disabled={organizations.length === 0} data-testid="rule-add">{t('admin.groupParts.rules.add')}</button>}>
      {!list.data ? <LoadState error={list.error} onRetry={list.reload} /> : (
        <table className={TABLE} data-testid="rule-table">
          <thead>
            <tr className={HEAD_ROW}>
              <th className={`${TH} w-16 text-right`}>{t('admin.groupParts.rules.priority')}</th>
              <th className={TH}>{t('admin.groupParts.rules.name')}</th>
              <th className={TH}>{t('admin.groupParts.rules.organization')}</th>
              <th className={TH}>{t('admin.groupParts.rules.modality')}</th>
              <th className={TH}>{t('admin.groupParts.rules.reporter')}</th>
              <th className={TH}>{t('admin.groupParts.rules.members')}</th>
              <th className={`${TH} w-36`}><span className="sr-only">{t('admin.groupParts.actions')}</span></th>
            </tr>
          </thead>
          <tbody>
            {list.data.length === 0 && <tr><td colSpan={7} className="px-3 py-6 text-center text-fg-muted">{t('admin.groupParts.rules.none')}</td></tr>}
            {list.data.map((rule) => (
              <tr key={rule.id} className={ROW} data-rule-id={rule.id}>
                <td className={`${TD} text-right tabular-nums`}>{rule.priority}</td>
                <td className={`${TD} font-medium`} data-rule-name>{rule.name}</td>
                <td className={TD}>{orgName(rule.bucketId)}</td>
                <td className={`${TD} font-mono text-xs`}>{rule.modality ?? <span className="font-sans text-fg-muted">{t('admin.groupParts.rules.anyModality')}</span>}</td>
                <td className={TD}>{rule.reporterId !== null ? radName(rule.reporterId) : <span className="text-fg-muted">{t('admin.groupParts.rules.leastLoaded')}</span>}</td>
                <td className={TD}>{rule.memberIds.length === 0 ? <span className="text-fg-muted">—</span> : rule.memberIds.map(radName).join(t('admin.groupParts.listSeparator'))}</td>
                <td className={`${TD} whitespace-nowrap text-right`}>
                  <RowActions boxed={false} editLabel={t('admin.groupParts.edit')} deleteLabel={t('admin.delete')} onEdit={() => setEditing(rule)} onDelete={() => rows.setDeleting(rule)}
                    editName={t('admin.groupParts.rules.editOf', { name: rule.name })} deleteName={t('admin.groupParts.rules.deleteOf', { name: rule.name })} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing !== null && (
        <RuleDialog groupId={groupId} rule={editing === 'new' ? null : editing} organizations={organizations} rads={rads}
          onClose={() => setEditing(null)} onSaved={() => { setEditing(null); list.reload(); }} />
      )}
      <DeleteConfirm rows={rows} title={t('admin.groupParts.rules.deleteTitle')} confirmLabel={t('admin.delete')}
        body={t('admin.groupParts.rules.deleteBody', { name: rows.deleting?.name ?? '' })}
        onConfirm={() => rows.confirmDelete((r) => groupPartsApi.deleteRule(groupId, r.id), (r) => t('admin.groupParts.rules.deleted', { name: r.name }))} />
    </Section>
  );
}
