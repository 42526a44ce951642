import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { AccountSuggestion } from '../../../../contract/accounts';
import type { ReportView } from '../../../../contract/reports';
import { errorText } from '@/lib/errorText';
import { http, isSessionEndingError } from '@/lib/http';
import { Dialog } from '@/ui/Dialog';
import { Spinner } from '@/ui/Spinner';

interface Props {
  /** The report being assigned; null keeps the dialog closed. */
  report: ReportView | null;
  busy: boolean;
  onAssign: (account: AccountSuggestion) => void;
  onCancel: () => void;
}

/** Typing settles for this long before the next question (the first list comes at once). */
const DEBOUNCE_MS = 150;

/**
 * Assign the report to an account (core §4, report_assign). The list is the report organisation's report
 * writers as the server says (GET accounts/suggestions with bucketId and action=report_upsert): the only
 * accounts POST reports/{id}/assign accepts. Keyboard first: type to narrow, ↑/↓ to move, Enter to assign, Esc.
 */
export function AssignDialog({ report, busy, onAssign, onCancel }: Props) {
  const { t } = useTranslation();
  return (
    <Dialog open={report !== null} title={t('report.assign.title')} onCancel={onCancel} width={460}>
      {report && <AssignForm report={report} busy={busy} onAssign={onAssign} onCancel={onCancel} />}
    </Dialog>
  );
}

function AssignForm({ report, busy, onAssign, onCancel }: Props & { report: ReportView }) {
  const { t } = useTranslation();
  const id = useId();
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<{ query: string; accounts: AccountSuggestion[] } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  const [active, setActive] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    const q = query.trim();
    const timer = setTimeout(() => {
      http.get<AccountSuggestion[]>('accounts/suggestions', { query: { q, bucketId: report.bucketId, action: 'report_upsert' }, signal: controller.signal }).then(
        (accounts) => {
          setFound({ query: q, accounts });
          setError(null);
          // Start on the first account that is not the assignee already.
          setActive(Math.max(0, accounts.findIndex((a) => a.id !== report.assignee?.id)));
        },
        (err: unknown) => !controller.signal.aborted && setError(err),
      );
    }, found === null ? 0 : DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
    // `found` only decides whether to wait; a new answer must not ask again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [query, report.bucketId, report.assignee?.id, attempt]);

  const accounts = found?.accounts ?? [];
  const settled = found !== null && found.query === query.trim();
  const chosen = accounts[active] ?? null;
  const current = report.assignee;
  const canAssign = !busy && chosen !== null && chosen.id !== current?.id;

  const pick = (account: AccountSuggestion | null) => {
    if (!busy && account && account.id !== current?.id) onAssign(account);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.nativeEvent.isComposing) return;
    const last = accounts.length - 1;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (last < 0) return;
      setActive((i) => (event.key === 'ArrowDown' ? (i >= last ? 0 : i + 1) : i <= 0 ? last : i - 1));
    } else if (event.key === 'Enter') {
      // Claimed, so Ctrl+Enter here does not submit the report behind the dialog.
      event.preventDefault();
      event.stopPropagation();
      pick(chosen);
    }
  };

  const optionId = (accountId: number) => `${id}-account-${accountId}`;

  return (
    <div className="flex flex-col gap-3" data-assign-dialog>
      <p className="text-sm text-fg-muted" data-current-assignee={current?.id ?? ''}>
        {current ? t('report.assign.current', { name: current.name }) : t('report.assign.none')}
      </p>
      {report.creator && <p className="text-xs text-fg-subtle">{t('report.assign.handOver', { name: report.creator.name })}</p>}
      <label htmlFor={`${id}-q`} className="text-[13px] font-medium text-fg-muted">{t('report.assign.search')}</label>
      <input
        id={`${id}-q`}
        autoFocus
        type="text"
        role="combobox"
        aria-expanded={accounts.length > 0}
        aria-controls={`${id}-list`}
        aria-autocomplete="list"
        aria-activedescendant={chosen ? optionId(chosen.id) : undefined}
        autoComplete="off"
        spellCheck={false}
        maxLength={64}
        className="input"
        placeholder={t('report.assign.placeholder')}
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="min-h-[9.5rem]">
        {error !== null && !isSessionEndingError(error) ? (
          <p role="alert" className="text-sm text-danger">
            {errorText(t, error)}{' '}
            <button type="button" className="link" onClick={() => setAttempt((n) => n + 1)}>{t('common.retry')}</button>
          </p>
        ) : found === null ? (
          <Spinner label={t('common.loading')} />
        ) : accounts.length === 0 ? (
          <p className="py-3 text-center text-sm text-fg-subtle">{t('report.assign.noMatch')}</p>
        ) : (
          <ul id={`${id}-list`} role="listbox" aria-label={t('report.assign.listLabel')} aria-busy={!settled || undefined}
            className="max-h-64 overflow-auto rounded-md border border-line py-1">
            {accounts.map((account, index) => {
              const isCurrent = account.id === current?.id;
              return (
                <li
                  key={account.id}
                  id={optionId(account.id)}
                  role="option"
                  aria-selected={index === active}
                  aria-disabled={isCurrent || undefined}
                  data-account={account.username}
                  className={`flex cursor-pointer items-baseline gap-2 px-3 py-1.5 text-sm ${index === active ? 'bg-accent-soft' : 'hover:bg-sunken'} ${isCurrent ? 'text-fg-subtle' : ''}`}
                  onMouseEnter={() => setActive(index)}
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => pick(account)}
                >
                  <span className="font-medium">{account.name}</span>
                  <span className="text-xs text-fg-muted">{account.username}</span>
                  {isCurrent && <span className="ml-auto text-xs">{t('report.assign.isCurrent')}</span>}
                </li>
              );
            })}
          </ul>
        )}
      </div>
      <p className="text-xs text-fg-subtle">{t('report.assign.keys')}</p>
      <div className="flex justify-end gap-2">
        <button type="button" className="btn" onClick={onCancel}>{t('common.cancel')}</button>
        <button type="button" className="btn btn-primary" disabled={!canAssign} onClick={() => pick(chosen)}>
          {busy ? t('report.state.working') : chosen && canAssign ? t('report.assign.confirmTo', { name: chosen.name }) : t('report.assign.confirm')}
        </button>
      </div>
    </div>
  );
}
