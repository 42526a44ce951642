import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MAIN_CONTROL } from '@/lib/mainFocus';

/** What every member list shows of a person, a group's or an organisation's. */
export interface MemberRow { accountId: number; name: string; username: string }

interface Props<M extends MemberRow> {
  members: readonly M[];
  testId: string;
  /** The answer belongs to another page or query: dimmed until the new one is in. */
  stale?: boolean;
  /** The line shown in place of an empty list (none: the table stays headed and empty). */
  empty?: string;
  /** The screen-reader name of the actions column (none: an unnamed column). */
  actionsLabel?: string;
  /** Beside the name (a disabled account's mark). */
  nameNote?: (member: M) => ReactNode;
  /** The level cell: a LevelSelect for those who may change it, else its name. */
  level: (member: M) => ReactNode;
  lastLogin: (member: M) => string;
  /** The last sign-in in tabular figures (the group's dates line up; the organisation's carry an address). */
  tabularLogin?: boolean;
  /** Remove (asks first, by the screen); none: no remove button. */
  onRemove?: (member: M) => void;
}

/**
 * One members table for the group's and the organisation's members: name, username, level, last sign-in, remove.
 * It is the screen's main control (the focus lands on it) and holds no state: the screen pages, finds and writes.
 */
export function MembersTable<M extends MemberRow>({ members, testId, stale = false, empty, actionsLabel, nameNote, level, lastLogin, tabularLogin = false, onRemove }: Props<M>) {
  const { t } = useTranslation();
  return (
    <table className={`w-full max-w-5xl border-collapse rounded-md border border-line bg-surface text-[13px] outline-none focus-visible:outline-2 focus-visible:outline-focus${stale ? ' opacity-60' : ''}`}
      data-testid={testId} tabIndex={0} aria-label={t('admin.group.tabs.members')} {...MAIN_CONTROL}>
      <thead>
        <tr className="border-b border-line text-left text-xs text-fg-muted">
          <th className="px-3 py-2 font-medium">{t('admin.members.name')}</th>
          <th className="px-3 py-2 font-medium">{t('admin.members.username')}</th>
          <th className="px-3 py-2 font-medium">{t('admin.members.level')}</th>
          <th className="px-3 py-2 font-medium">{t('admin.members.lastLogin')}</th>
          <th className="w-24 px-3 py-2">{actionsLabel !== undefined && <span className="sr-only">{actionsLabel}</span>}</th>
        </tr>
      </thead>
      <tbody>
        {members.length === 0 && empty !== undefined && <tr><td colSpan={5} className="px-3 py-6 text-center text-fg-muted">{empty}</td></tr>}
        {members.map((m) => (
          <tr key={m.accountId} className="border-b border-line/60 last:border-0" data-account-id={m.accountId}>
            <td className="px-3 py-1.5">{m.name}{nameNote?.(m)}</td>
            <td className="px-3 py-1.5 font-mono text-xs">{m.username}</td>
            <td className="px-3 py-1.5">{level(m)}</td>
            <td className={`px-3 py-1.5 text-xs${tabularLogin ? ' tabular-nums' : ''} text-fg-muted`}>{lastLogin(m)}</td>
            <td className="px-3 py-1.5 text-right">
              {onRemove && <button type="button" className="btn btn-ghost h-6 px-2 text-xs text-danger" onClick={() => onRemove(m)}>{t('admin.members.remove')}</button>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A member's level, changed in place (the write waits while another runs). */
export function LevelSelect({ name, value, levels, disabled, onChange }: {
  name: string; value: string | number; levels: ReadonlyArray<{ value: string | number; label: string }>; disabled: boolean; onChange: (value: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <select aria-label={t('admin.members.levelOf', { name })} className="input h-7 w-auto py-0 pr-6 text-[13px]" value={value} disabled={disabled}
      onChange={(e) => onChange(e.target.value)}>
      {levels.map((l) => <option key={l.value} value={l.value}>{l.label}</option>)}
    </select>
  );
}
