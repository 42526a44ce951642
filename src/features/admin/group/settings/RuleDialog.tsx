import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MODALITIES } from '../../../../../contract/constants';
import type { AssignRule, AssignRuleInput, GroupOrganization, GroupRad } from '../../../../../contract/groups';
import { useLoad } from '@/lib/useLoad';
import { Dialog } from '@/ui/Dialog';
import { organizationsApi } from '../../api';
import { groupPartsApi } from '../groupApi';
import { CHECKBOX, ErrorNote, failedFields } from './parts';
import { useWrite } from '../../ui/useWrite';

/**
 * Adds or changes an assign rule. The reporter and the members are the radiologists of the chosen organisation (the
 * server refuses anyone else with NotBucketMember); no reporter means the least loaded of the members.
 */
export function RuleDialog({ groupId, rule, organizations, rads, onClose, onSaved }: {
  groupId: number;
  rule: AssignRule | null;
  organizations: readonly GroupOrganization[];
  rads: readonly GroupRad[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const ids = useId();
  const [name, setName] = useState(rule?.name ?? '');
  const [bucketId, setBucketId] = useState<number>(rule?.bucketId ?? organizations[0]?.id ?? 0);
  const [modality, setModality] = useState(rule?.modality ?? '');
  const [reporterId, setReporterId] = useState<number | null>(rule?.reporterId ?? null);
  const [memberIds, setMemberIds] = useState<number[]>(rule?.memberIds ?? []);
  const [priority, setPriority] = useState(String(rule?.priority ?? 0));
  const { busy, error, run } = useWrite({ errors: 'inline' });
  const members = useLoad(bucketId > 0 ? `admin:org:${bucketId}:members` : null, (signal) => organizationsApi.members(bucketId, { signal }));
  const radIds = new Set(rads.map((r) => r.id));
  const candidates = (members.data ?? []).filter((m) => radIds.has(m.accountId) || m.accountId === reporterId || memberIds.includes(m.accountId));
  const modalities: readonly string[] = modality && !(MODALITIES as readonly string[]).includes(modality) ? [...MODALITIES, modality] : MODALITIES;
  const labels = {
    name: t('admin.groupParts.rules.name'), bucketId: t('admin.groupParts.rules.organization'), modality: t('admin.groupParts.rules.modality'),
    reporterId: t('admin.groupParts.rules.reporter'), memberIds: t('admin.groupParts.rules.members'), priority: t('admin.groupParts.rules.priority'),
  };
  const invalid = new Set(failedFields(error));
  const nobody = reporterId === null && memberIds.length === 0;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim() || nobody) return;
    const input: AssignRuleInput = {
      name: name.trim(), bucketId, reporterId, modality: modality || null, memberIds, priority: priority.trim() === '' ? 0 : Number(priority),
    };
    const saved = await run(
      () => (rule ? groupPartsApi.updateRule(groupId, rule.id, input) : groupPartsApi.createRule(groupId, input)),
      t(rule ? 'admin.groupParts.rules.updated' : 'admin.groupParts.rules.created', { name: input.name }),
    );
    if (saved) onSaved();
  };
  const field = 'mb-1 block text-[13px] font-medium';

  return (
    <Dialog open title={t(rule ? 'admin.groupParts.rules.editTitle' : 'admin.groupParts.rules.add')} onCancel={busy ? undefined : onClose} width={520}>
      <form onSubmit={submit} className="grid grid-cols-2 gap-x-4 gap-y-3" data-testid="rule-form">
        <div className="col-span-2">
          <label htmlFor={`${ids}-name`} className={field}>{labels.name}</label>
          <input id={`${ids}-name`} className="input" value={name} autoFocus maxLength={64} onChange={(e) => setName(e.target.value)} aria-invalid={invalid.has('name') || undefined} />
        </div>
        <div>
          <label htmlFor={`${ids}-org`} className={field}>{labels.bucketId}</label>
          <select id={`${ids}-org`} className="input" value={bucketId} aria-invalid={invalid.has('bucketId') || undefined}
            onChange={(e) => { setBucketId(Number(e.target.value)); setReporterId(null); setMemberIds([]); }}>
            {organizations.map((o) => <option key={o.id} value={o.id}>{o.name}</option>)}
          </select>
        </div>
        <div>
          <label htmlFor={`${ids}-modality`} className={field}>{labels.modality}</label>
          <select id={`${ids}-modality`} className="input" value={modality} onChange={(e) => setModality(e.target.value)} aria-invalid={invalid.has('modality') || undefined}>
            <option value="">{t('admin.groupParts.rules.anyModality')}</option>
            {modalities.map((m) => <option key={m} value={m}>{m}</option>)}
          </select>
        </div>
        <div>
          <label htmlFor={`${ids}-reporter`} className={field}>{labels.reporterId}</label>
          <select id={`${ids}-reporter`} className="input" value={reporterId ?? ''} aria-invalid={invalid.has('reporterId') || undefined}
            onChange={(e) => setReporterId(e.target.value === '' ? null : Number(e.target.value))}>
            <option value="">{t('admin.groupParts.rules.leastLoaded')}</option>
            {candidates.map((m) => <option key={m.accountId} value={m.accountId}>{m.name} ({m.username})</option>)}
          </select>
        </div>
        <div>
          <label htmlFor={`${ids}-priority`} className={field}>{labels.priority}</label>
          <input id={`${ids}-priority`} type="number" inputMode="numeric" step={1} className="input tabular-nums" value={priority}
            onChange={(e) => setPriority(e.target.value)} aria-invalid={invalid.has('priority') || undefined} aria-describedby={`${ids}-priority-hint`} />
          <p id={`${ids}-priority-hint`} className="mt-1 text-xs text-fg-muted">{t('admin.groupParts.rules.priorityHint')}</p>
        </div>
        <fieldset className="col-span-2" aria-invalid={invalid.has('memberIds') || undefined}>
          <legend className={field}>{labels.memberIds}</legend>
          {members.error ? <ErrorNote error={members.error} className="" /> : candidates.length === 0 ? (
            <p className="text-xs text-fg-muted">{members.data ? t('admin.groupParts.rules.noRads') : t('common.loading')}</p>
          ) : (
            <ul className="grid max-h-40 grid-cols-2 gap-x-4 overflow-auto rounded-md border border-line bg-surface px-3 py-1.5" data-testid="rule-members">
              {candidates.map((m) => (
                <li key={m.accountId}>
                  <label className="flex items-center gap-2 py-1 text-[13px]">
                    <input type="checkbox" className={CHECKBOX} checked={memberIds.includes(m.accountId)} data-username={m.username}
                      onChange={(e) => setMemberIds((list) => (e.target.checked ? [...list, m.accountId] : list.filter((id) => id !== m.accountId)))} />
                    <span className="truncate">{m.name}</span>
                    <span className="font-mono text-xs text-fg-subtle">{m.username}</span>
                  </label>
                </li>
              ))}
            </ul>
          )}
          <p className={`mt-1 text-xs ${nobody ? 'text-warn' : 'text-fg-muted'}`}>{t('admin.groupParts.rules.whoHint')}</p>
        </fieldset>
        {error !== null && <ErrorNote error={error} labels={labels} testId="rule-error" className="col-span-2" />}
        <div className="col-span-2 flex justify-end gap-2">
          <button type="button" className="btn" onClick={onClose} disabled={busy}>{t('common.cancel')}</button>
          <button type="submit" className="btn btn-primary" disabled={busy || !name.trim() || nobody}>{t('admin.groupParts.save')}</button>
        </div>
      </form>
    </Dialog>
  );
}
