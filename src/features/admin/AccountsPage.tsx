import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RealmAccount } from '../../../contract/accounts';
import { formatDateTime } from '@/lib/format';
import { useLoad } from '@/lib/useLoad';
import { ConfirmDialog } from '@/ui/ConfirmDialog';
import { accountsApi } from './api';
import { LoadState } from '@/ui/LoadState';
import { useTypedQuery } from './ui/useTypedQuery';
import { useWrite } from './ui/useWrite';

const PAGE = 50;

/**
 * /accounts (areas §2, §7): the accounts of the groups one administers, found by username or name, with their status
 * and last sign-in (time and place). Disabling asks first and ends the account's sessions at once; enabling does not ask.
 */
export default function AccountsPage() {
  const { t } = useTranslation();
  const ids = useId();
  const { typed, setTyped, query, page, setPage } = useTypedQuery();
  const [disabling, setDisabling] = useState<RealmAccount | null>(null);
  const { busy, run } = useWrite();
  const findRef = useRef<HTMLInputElement>(null);
  const list = useLoad(`admin:accounts:${query}:${page}`, (signal) => accountsApi.realm({ query, skip: page * PAGE, limit: PAGE }, { signal }));
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / PAGE));
  const setStatus = (account: RealmAccount, status: 0 | 1) =>
    run(() => accountsApi.setStatus(account.id, status), t(status === 1 ? 'admin.accounts.disabled' : 'admin.accounts.enabled', { name: account.name })).then((ok) => {
      if (ok) { setDisabling(null); list.reload(); }
    });

  return (
    <div className="mx-auto w-full max-w-5xl px-6 py-6">
      <div className="mb-3 flex items-center gap-3">
        <h1 className="text-base font-semibold">{t('admin.accounts.title')}</h1>
        <label htmlFor={`${ids}-find`} className="sr-only">{t('admin.accounts.find')}</label>
        <input id={`${ids}-find`} ref={findRef} type="search" autoFocus className="input ml-auto h-7 w-64 text-[13px]" placeholder={t('admin.accounts.find')}
          value={typed} onChange={(e) => setTyped(e.target.value)} data-testid="accounts-find" />
      </div>
      {!list.data ? <LoadState error={list.error} onRetry={list.reload} /> : (
        <>
          <table className={`w-full border-collapse rounded-md border border-line bg-surface text-[13px] ${list.stale ? 'opacity-60' : ''}`} data-testid="accounts-table">
            <thead>
              <tr className="border-b border-line text-left text-xs text-fg-muted">
                <th className="px-3 py-2 font-medium">{t('admin.members.name')}</th>
                <th className="px-3 py-2 font-medium">{t('admin.members.username')}</th>
                <th className="px-3 py-2 font-medium">{t('admin.accounts.status')}</th>
                <th className="px-3 py-2 font-medium">{t('admin.members.lastLogin')}</th>
                <th className="px-3 py-2 font-medium">{t('admin.accounts.place')}</th>
                <th className="w-24 px-3 py-2" />
              </tr>
            </thead>
            <tbody>
              {list.data.items.length === 0 && <tr><td colSpan={6} className="px-3 py-6 text-center text-fg-muted">{t('admin.accounts.none')}</td></tr>}
              {list.data.items.map((a) => (
                <tr key={a.id} className="border-b border-line/60 last:border-0" data-account-id={a.id}>
                  <td className="px-3 py-1.5">{a.name}{a.techTitle && <span className="ml-1.5 text-xs text-fg-muted">{a.techTitle}</span>}</td>
                  <td className="px-3 py-1.5 font-mono text-xs">{a.username}</td>
                  <td className="px-3 py-1.5">
                    <span className={`rounded border px-1.5 py-0.5 text-xs ${a.status === 1 ? 'border-danger/40 bg-danger-soft text-danger' : 'border-line text-fg-muted'}`}>
                      {a.status === 1 ? t('admin.accounts.statusDisabled') : t('admin.accounts.statusNormal')}
                    </span>
                  </td>
                  <td className="px-3 py-1.5 text-xs tabular-nums text-fg-muted">{a.lastLoginAt ? formatDateTime(a.lastLoginAt) : t('admin.accounts.never')}</td>
                  <td className="px-3 py-1.5 font-mono text-xs text-fg-muted">{a.lastLoginIp ?? '—'}</td>
                  <td className="px-3 py-1.5 text-right">
                    {a.status === 1
                      ? <button type="button" className="btn h-6 px-2 text-xs" disabled={busy} onClick={() => void setStatus(a, 0)}>{t('admin.accounts.enable')}</button>
                      : <button type="button" className="btn btn-ghost h-6 px-2 text-xs text-danger" disabled={busy} onClick={() => setDisabling(a)}>{t('admin.accounts.disable')}</button>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {pages > 1 && (
            <div className="mt-2 flex items-center justify-end gap-2 text-xs text-fg-muted">
              <button type="button" className="btn h-6 px-2 text-xs" disabled={page === 0} onClick={() => setPage((p) => p - 1)}>{t('admin.accounts.previous')}</button>
              <span className="tabular-nums">{page + 1} / {pages}</span>
              <button type="button" className="btn h-6 px-2 text-xs" disabled={page + 1 >= pages} onClick={() => setPage((p) => p + 1)}>{t('admin.accounts.next')}</button>
            </div>
          )}
        </>
      )}
      <ConfirmDialog open={disabling !== null} title={t('admin.accounts.disableTitle')} confirmLabel={t('admin.accounts.disable')} busy={busy} focus="cancel"
        onCancel={() => setDisabling(null)} onConfirm={() => disabling && void setStatus(disabling, 1)}>
        <p className="text-[13px]">{t('admin.accounts.disableBody', { name: disabling?.name ?? '' })}</p>
      </ConfirmDialog>
    </div>
  );
}
