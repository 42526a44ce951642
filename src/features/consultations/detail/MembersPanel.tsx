import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CONSULTATION_MEMBERS_MAX, type ConsultationDetail, type ConsultationMember } from '../../../../contract/consultations';
import { errorText } from '@/lib/errorText';
import { useLoad } from '@/lib/useLoad';
import { Dialog } from '@/ui/Dialog';
import { detailApi } from './api';
import { KeyHint, Section } from '../../../ui/Section';
import type { Write } from './useConsultation';

/** Areas §3 members and experts: experts first (they write the result), then the members. */
export function MembersPanel({ detail, canEdit, onEdit }: { detail: ConsultationDetail; canEdit: boolean; onEdit: () => void }) {
  const { t } = useTranslation();
  const experts = detail.members.filter((m) => m.role === 'expert');
  const members = detail.members.filter((m) => m.role === 'member');
  const list = (people: ConsultationMember[], role: 'expert' | 'member') => (
    <div>
      <h3 className="text-[12px] font-medium text-fg-muted">{t(`consultations.detail.members.${role}s`)}</h3>
      {people.length === 0 ? <p className="text-[13px] text-fg-subtle">—</p> : (
        <ul className="text-[13px]" data-testid={`member-list-${role}`}>
          {people.map((m) => (
            <li key={m.id} className="flex gap-2 py-0.5">
              <span className="font-medium">{m.name}</span>
              {m.techTitle && <span className="text-fg-muted">{m.techTitle}</span>}
              <span className="ml-auto truncate text-fg-subtle">{m.bucketName}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
  return (
    <Section
      title={t('consultations.detail.members.title')}
      count={detail.members.length}
      testId="consultation-members"
      actions={canEdit && <button type="button" className="btn h-7 text-[13px]" onClick={onEdit}>{t('consultations.detailCommands.members')} <KeyHint keys="M" /></button>}
    >
      <div className="flex flex-col gap-2">
        {list(experts, 'expert')}
        {list(members, 'member')}
      </div>
    </Section>
  );
}

/**
 * The whole member list at once (PUT members): add people of the consultation's organisations (GET
 * consultations/people?bucketId), set each one's role, remove. Experts come only from the target organisation.
 */
export function MembersDialog({ detail, busy, write, onClose }: { detail: ConsultationDetail; busy: boolean; write: Write; onClose: () => void }) {
  const { t } = useTranslation();
  const [list, setList] = useState<ConsultationMember[]>(detail.members);
  const orgs = useMemo(() => {
    const all = [{ id: detail.appliedBucketId, name: detail.appliedBucketName }, { id: detail.targetBucketId, name: detail.targetBucketName }, ...detail.joinedBuckets];
    return all.filter((o, i) => all.findIndex((x) => x.id === o.id) === i);
  }, [detail]);
  const [bucketId, setBucketId] = useState(detail.targetBucketId);
  const people = useLoad(`consultation-people:${bucketId}`, (signal) => detailApi.people(bucketId, { signal }));
  const [pick, setPick] = useState<number | ''>('');
  const isTarget = bucketId === detail.targetBucketId;
  const [role, setRole] = useState<'member' | 'expert'>('expert');
  const chooseBucket = (next: number) => {
    setBucketId(next);
    setPick('');
    setRole(next === detail.targetBucketId ? 'expert' : 'member');
  };
  const choices = (people.data ?? []).filter((p) => !list.some((m) => m.id === p.id));
  const full = list.length >= CONSULTATION_MEMBERS_MAX;

  const add = () => {
    const person = choices.find((p) => p.id === pick);
    if (!person || full) return;
    setList((l) => [...l, { ...person, role: isTarget ? role : 'member' }]);
    setPick('');
  };
  const save = async () => {
    const ok = await write((d) => detailApi.members(d.id, { members: list.map((m) => ({ accountId: m.id, role: m.role })) }), t('consultations.detail.members.saved'));
    if (ok) onClose();
  };

  return (
    <Dialog open title={t('consultations.detail.members.editTitle')} onCancel={busy ? undefined : onClose} width={560}>
      <ul className="mb-3 flex max-h-64 flex-col overflow-y-auto rounded-md border border-line" data-testid="members-edit-list">
        {list.length === 0 && <li className="px-2 py-1.5 text-[13px] text-fg-muted">{t('consultations.detail.members.empty')}</li>}
        {list.map((m) => (
          <li key={m.id} className="flex items-center gap-2 border-b border-line px-2 py-1 text-[13px] last:border-b-0">
            <span className="font-medium">{m.name}</span>
            <span className="truncate text-fg-subtle">{m.bucketName}</span>
            <select
              className="input ml-auto h-7 w-28 py-0 text-[13px]"
              value={m.role}
              aria-label={t('consultations.detail.members.roleOf', { name: m.name })}
              onChange={(e) => setList((l) => l.map((x) => (x.id === m.id ? { ...x, role: e.target.value as 'member' | 'expert' } : x)))}
            >
              <option value="member">{t('consultations.detail.members.member')}</option>
              <option value="expert">{t('consultations.detail.members.expert')}</option>
            </select>
            <button type="button" className="btn btn-ghost h-7 px-2 text-[13px]" onClick={() => setList((l) => l.filter((x) => x.id !== m.id))}>{t('consultations.detail.members.remove')}</button>
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap items-end gap-2">
        <label className="flex flex-col gap-1 text-[12px] text-fg-muted">
          {t('consultations.detail.members.organisation')}
          <select className="input h-8 w-44" value={bucketId} onChange={(e) => chooseBucket(Number(e.target.value))}>
            {orgs.map((o) => <option key={o.id} value={o.id}>{o.name}</option>)}
          </select>
        </label>
        <label className="flex min-w-40 flex-1 flex-col gap-1 text-[12px] text-fg-muted">
          {t('consultations.detail.members.person')}
          <select className="input h-8" value={pick} onChange={(e) => setPick(e.target.value ? Number(e.target.value) : '')} disabled={!people.data}>
            <option value="">{people.loading ? t('common.loading') : t('consultations.detail.members.choose')}</option>
            {choices.map((p) => <option key={p.id} value={p.id}>{p.name}{p.techTitle ? ` · ${p.techTitle}` : ''}</option>)}
          </select>
        </label>
        {isTarget && (
          <label className="flex flex-col gap-1 text-[12px] text-fg-muted">
            {t('consultations.detail.members.role')}
            <select className="input h-8 w-28" value={role} onChange={(e) => setRole(e.target.value as 'member' | 'expert')}>
              <option value="expert">{t('consultations.detail.members.expert')}</option>
              <option value="member">{t('consultations.detail.members.member')}</option>
            </select>
          </label>
        )}
        <button type="button" className="btn h-8" onClick={add} disabled={pick === '' || full}>{t('consultations.detail.members.add')}</button>
      </div>
      {people.error !== null && <p className="mt-2 text-[13px] text-danger" role="alert">{errorText(t, people.error)}</p>}
      {!isTarget && <p className="mt-1 text-[11px] text-fg-subtle">{t('consultations.detail.members.expertsHint')}</p>}
      <div className="mt-4 flex justify-end gap-2">
        <button type="button" className="btn" onClick={onClose} disabled={busy}>{t('common.cancel')}</button>
        <button type="button" className="btn btn-primary" onClick={() => void save()} disabled={busy}>{busy ? t('common.saving') : t('common.save')}</button>
      </div>
    </Dialog>
  );
}
