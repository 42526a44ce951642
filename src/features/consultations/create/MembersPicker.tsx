import { useTranslation } from 'react-i18next';
import type { ConsultationPerson } from '../../../../contract/consultations';
import { CONSULTATION_MEMBERS_MAX } from '../../../../contract/consultations';
import type { MemberRole } from './draft';

interface Side {
  key: 'applicant' | 'target';
  title: string;
  people: ConsultationPerson[] | null;
  failed: boolean;
}

/**
 * Members chosen from the applicant's and the target's people (GET consultations/people). Experts come only from
 * the target (areas §5): an applicant's person is always a member; a target's person is an expert or a member.
 */
export function MembersPicker({ sides, members, selfId, onChange }: {
  sides: Side[];
  members: ReadonlyMap<number, MemberRole>;
  selfId: number | null;
  onChange: (members: Map<number, MemberRole>) => void;
}) {
  const { t } = useTranslation();
  const full = members.size >= CONSULTATION_MEMBERS_MAX;
  const set = (id: number, role: MemberRole | null) => {
    const next = new Map(members);
    if (role === null) next.delete(id);
    else next.set(id, role);
    onChange(next);
  };
  return (
    <fieldset className="min-w-0">
      <legend className="mb-1 text-xs text-fg-subtle">
        <span className="sr-only">{t('consultations.create.members')} </span>{t('consultations.create.membersCount', { count: members.size, max: CONSULTATION_MEMBERS_MAX })}
      </legend>
      <div className="grid gap-3 sm:grid-cols-2">
        {sides.map((side) => (
          <div key={side.key} className="min-w-0 rounded-md border border-line" data-members-side={side.key}>
            <p className="truncate border-b border-line bg-sunken px-2 py-1 text-xs font-medium text-fg-muted" title={side.title}>{side.title}</p>
            {side.failed ? (
              <p className="px-2 py-2 text-xs text-danger">{t('consultations.create.peopleFailed')}</p>
            ) : side.people === null ? (
              <p className="px-2 py-2 text-xs text-fg-subtle">{t('common.loading')}</p>
            ) : side.people.filter((p) => p.id !== selfId).length === 0 ? (
              <p className="px-2 py-2 text-xs text-fg-subtle">{t('consultations.create.noPeople')}</p>
            ) : (
              <ul className="max-h-44 overflow-auto py-0.5">
                {side.people.filter((p) => p.id !== selfId).map((person) => {
                  const role = members.get(person.id) ?? null;
                  return (
                    <li key={person.id} className="flex items-center gap-2 px-2 py-0.5 text-[13px] hover:bg-sunken/60" data-person={person.id}>
                      <label className="flex min-w-0 flex-1 items-center gap-2">
                        <input type="checkbox" checked={role !== null} disabled={role === null && full}
                          onChange={(e) => set(person.id, e.target.checked ? (side.key === 'target' ? 'expert' : 'member') : null)} />
                        <span className="truncate">{person.name}</span>
                        {person.techTitle && <span className="truncate text-xs text-fg-subtle">{person.techTitle}</span>}
                      </label>
                      {side.key === 'target' && role !== null && (
                        <select aria-label={t('consultations.create.roleOf', { name: person.name })} className="input h-6 w-auto py-0 pr-6 text-xs" value={role}
                          onChange={(e) => set(person.id, e.target.value as MemberRole)}>
                          <option value="expert">{t('consultations.create.roles.expert')}</option>
                          <option value="member">{t('consultations.create.roles.member')}</option>
                        </select>
                      )}
                    </li>
                  );
                })}
              </ul>
            )}
          </div>
        ))}
      </div>
    </fieldset>
  );
}
