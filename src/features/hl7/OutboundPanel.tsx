import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Page } from '../../../contract/common';
import { HL7_CHARSETS, type Hl7Charset, type Hl7Destination, type Hl7OutboxItem, type Hl7OutboxStatus } from '../../../contract/hl7Outbound';
import { useCommands } from '@/lib/commands';
import { errorText } from '@/lib/errorText';
import { http, isSessionEndingError } from '@/lib/http';
import { toasts } from '@/lib/toasts';
import { useLoad } from '@/lib/useLoad';
import { Alert } from '@/ui/Alert';
import { KeyHint, Section } from '@/ui/Section';
import { Spinner } from '@/ui/Spinner';
import { hl7OutboundCommands } from './outboundCommands';

type Form = Omit<Hl7Destination, 'port' | 'maxAttempts' | 'ackTimeoutMs'> & { port: string; maxAttempts: string; ackTimeoutMs: string };
type StatusFilter = 'all' | Hl7OutboxStatus;

const toForm = (d: Hl7Destination): Form => ({ ...d, port: String(d.port), maxAttempts: String(d.maxAttempts), ackTimeoutMs: String(d.ackTimeoutMs) });
const fromForm = (f: Form): Hl7Destination => ({
  ...f, port: Number(f.port), maxAttempts: Number(f.maxAttempts), ackTimeoutMs: Number(f.ackTimeoutMs), tlsCa: f.tls && f.tlsCa?.trim() ? f.tlsCa.trim() : null,
});

/** The outbox row that has the focus and may be resent, or null. */
function focusedResendable(): number | null {
  const row = document.activeElement instanceof HTMLElement ? document.activeElement.closest<HTMLElement>('[data-hl7-row]') : null;
  return row && row.dataset.hl7Status !== 'pending' ? Number(row.dataset.hl7Row) : null;
}

/**
 * HL7 results out (issue 36, server/hl7/outbound): where the organisation's approved reports go as ORU^R01 over MLLP
 * (host, port, the names in MSH, the character set, TLS, attempts and the ACK wait), and the outbox: every message
 * with its state, the peer's answer and the last error; dead letters (attempts used up) are resent from here.
 * Keys: `/` search, Shift+D dead letters only, R resends the focused row, Ctrl+S saves (./commands.ts).
 */
export function OutboundPanel({ orgId }: { orgId: number }) {
  const { t, i18n } = useTranslation();
  const ids = useId();
  const base = `buckets/${orgId}/hl7`;
  const destination = useLoad(`hl7:${orgId}:destination`, (signal) => http.get<Hl7Destination>(`${base}/destination`, { signal }));
  // The admin's edits; null shows the destination as the server has it (so a reload after saving shows what was kept).
  const [edits, setEdits] = useState<Form | null>(null);
  const form = edits ?? (destination.data ? toForm(destination.data) : null);
  const [busy, setBusy] = useState(false);
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  const [status, setStatus] = useState<StatusFilter>('all');
  const [open, setOpen] = useState<number | null>(null);
  const search = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const timer = setTimeout(() => setQuery(text.trim()), 250);
    return () => clearTimeout(timer);
  }, [text]);

  const filters = [
    ...(status === 'all' ? [] : [{ field: 'status', operator: 'equal', values: [status] }]),
    ...(query ? [{ field: 'text', operator: 'like', values: [query] }] : []),
  ];
  const outbox = useLoad(`hl7:${orgId}:outbox:${status}:${query}`, (signal) =>
    http.post<Page<Hl7OutboxItem>>(`${base}/outbox/query`, { filters, limit: 50 }, { signal }));

  // The outbox moves on its own (the sender in every server process): it is asked again every few seconds.
  const reloadOutbox = outbox.reload;
  useEffect(() => {
    const timer = setInterval(reloadOutbox, 3000);
    return () => clearInterval(timer);
  }, [reloadOutbox]);

  const write = async (call: () => Promise<unknown>, success: string) => {
    if (busy) return false;
    setBusy(true);
    try {
      await call();
      toasts.show({ message: success, kind: 'success', duration: 2500 });
      return true;
    } catch (error) {
      if (!isSessionEndingError(error)) toasts.show({ message: errorText(t, error), kind: 'error' });
      return false;
    } finally {
      setBusy(false);
    }
  };
  const save = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!form) return;
    if (await write(() => http.put(`${base}/destination`, fromForm(form)), t('hl7.out.saved'))) {
      setEdits(null);
      destination.reload();
    }
  };
  const resend = async (rowId: number) => {
    if (await write(() => http.post(`${base}/outbox/${rowId}/resend`, {}), t('hl7.out.resent'))) outbox.reload();
  };

  useCommands(hl7OutboundCommands, {
    find: () => search.current?.focus(),
    toggleDead: () => setStatus((s) => (s === 'dead' ? 'all' : 'dead')),
    save: () => void save(),
    resendable: focusedResendable,
    resend: (rowId: number) => void resend(rowId),
    ready: form !== null && !busy,
  });

  const rowKey = (event: KeyboardEvent<HTMLTableRowElement>, id: number) => {
    if (event.key === 'Enter') { event.preventDefault(); setOpen((o) => (o === id ? null : id)); return; }
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    let next = event.key === 'ArrowDown' ? event.currentTarget.nextElementSibling : event.currentTarget.previousElementSibling;
    while (next instanceof HTMLElement && !next.dataset.hl7Row) next = event.key === 'ArrowDown' ? next.nextElementSibling : next.previousElementSibling;
    if (next instanceof HTMLElement) next.focus();
  };
  const time = (iso: string | null) => (iso ? new Date(iso).toLocaleString(i18n.language === 'en' ? 'en-GB' : 'zh-CN', { hour12: false }) : '—');
  const set = (patch: Partial<Form>) => setEdits(form ? { ...form, ...patch } : null);
  const field = (key: 'host' | 'port' | 'sendingApplication' | 'sendingFacility' | 'receivingApplication' | 'receivingFacility' | 'maxAttempts' | 'ackTimeoutMs', width: string, o: { numeric?: boolean; placeholder?: string } = {}) => (
    <div>
      <label htmlFor={`${ids}-${key}`} className="mb-0.5 block text-xs text-fg-muted">{t(`hl7.out.fields.${key}`)}</label>
      <input id={`${ids}-${key}`} className={`input h-7 text-[13px] ${width}`} value={form?.[key] ?? ''} placeholder={o.placeholder}
        inputMode={o.numeric ? 'numeric' : undefined} maxLength={o.numeric ? 6 : key === 'host' ? 255 : 64} data-testid={`hl7-out-${key}`}
        onChange={(e) => set({ [key]: o.numeric ? e.target.value.replace(/\D/g, '') : e.target.value })} />
    </div>
  );

  return (
    <div className="flex max-w-5xl flex-col gap-4" data-testid="hl7-outbound">
      <Section title={t('hl7.out.destination')} testId="hl7-out-destination">
        {!form ? (destination.error ? <Alert>{errorText(t, destination.error)}</Alert> : <Spinner label={t('common.loading')} />) : (
          <form onSubmit={save} className="flex flex-col gap-2">
            <p className="text-xs text-fg-muted">{t('hl7.out.hint')}</p>
            <label className="flex items-center gap-2 text-[13px]">
              <input type="checkbox" checked={form.enabled} onChange={(e) => set({ enabled: e.target.checked })} data-testid="hl7-out-enabled" />
              {t('hl7.out.fields.enabled')}
            </label>
            <div className="flex flex-wrap items-end gap-2">
              {field('host', 'w-56', { placeholder: 'his.example.org' })}
              {field('port', 'w-20', { numeric: true })}
              <div>
                <label htmlFor={`${ids}-charset`} className="mb-0.5 block text-xs text-fg-muted">{t('hl7.out.fields.charset')}</label>
                <select id={`${ids}-charset`} className="input h-7 w-auto text-[13px]" value={form.charset} data-testid="hl7-out-charset"
                  onChange={(e) => set({ charset: e.target.value as Hl7Charset })}>
                  {HL7_CHARSETS.map((c) => <option key={c} value={c}>{c}</option>)}
                </select>
              </div>
            </div>
            <div className="flex flex-wrap items-end gap-2">
              {field('sendingApplication', 'w-32')}
              {field('sendingFacility', 'w-44', { placeholder: t('hl7.out.facilityDefault') })}
              {field('receivingApplication', 'w-32')}
              {field('receivingFacility', 'w-32')}
            </div>
            <div className="flex flex-wrap items-end gap-2">
              {field('maxAttempts', 'w-20', { numeric: true })}
              {field('ackTimeoutMs', 'w-24', { numeric: true })}
              <label className="flex h-7 items-center gap-2 text-[13px]">
                <input type="checkbox" checked={form.tls} onChange={(e) => set({ tls: e.target.checked })} data-testid="hl7-out-tls" />
                {t('hl7.out.fields.tls')}
              </label>
            </div>
            {form.tls && (
              <div>
                <label htmlFor={`${ids}-ca`} className="mb-0.5 block text-xs text-fg-muted">{t('hl7.out.fields.tlsCa')}</label>
                <textarea id={`${ids}-ca`} className="input h-20 w-full font-mono text-xs" value={form.tlsCa ?? ''} placeholder="-----BEGIN CERTIFICATE-----"
                  onChange={(e) => set({ tlsCa: e.target.value })} />
              </div>
            )}
            <div>
              <button type="submit" className="btn btn-primary h-7 px-3 text-xs" disabled={busy} data-testid="hl7-out-save">
                {t('hl7.out.save')} <KeyHint keys="Ctrl+S" />
              </button>
            </div>
          </form>
        )}
      </Section>

      <Section title={t('hl7.out.outbox')} count={outbox.data?.total} testId="hl7-out-outbox"
        actions={(
          <>
            <label htmlFor={`${ids}-search`} className="sr-only">{t('hl7.out.search')}</label>
            <input id={`${ids}-search`} ref={search} className="input h-7 w-64 text-[13px]" value={text} placeholder={t('hl7.out.search')}
              data-testid="hl7-out-search" onChange={(e) => setText(e.target.value)}
              onKeyDown={(e) => { if (e.key === 'Escape') e.currentTarget.blur(); }} />
            <label htmlFor={`${ids}-status`} className="sr-only">{t('hl7.out.statusFilter')}</label>
            <select id={`${ids}-status`} className="input h-7 w-auto text-[13px]" value={status} data-testid="hl7-out-status"
              onChange={(e) => setStatus(e.target.value as StatusFilter)}>
              {(['all', 'pending', 'sent', 'dead'] as const).map((s) => <option key={s} value={s}>{t(`hl7.out.statuses.${s}`)}</option>)}
            </select>
          </>
        )}>
        {!outbox.data ? (outbox.error ? <Alert>{errorText(t, outbox.error)}</Alert> : <Spinner label={t('common.loading')} />) : outbox.data.items.length === 0 ? (
          <p className="text-[13px] text-fg-muted">{t('hl7.out.empty')}</p>
        ) : (
          <table className="w-full text-[13px]" data-testid="hl7-out-rows">
            <thead className="text-left text-xs text-fg-muted">
              <tr>
                <th className="py-1 font-normal">{t('hl7.out.columns.created')}</th><th className="font-normal">{t('hl7.out.columns.patient')}</th>
                <th className="font-normal">{t('hl7.out.columns.accession')}</th><th className="font-normal">{t('hl7.out.columns.kind')}</th>
                <th className="font-normal">{t('hl7.out.columns.status')}</th><th className="font-normal">{t('hl7.out.columns.attempts')}</th>
                <th className="font-normal">{t('hl7.out.columns.answer')}</th>
                <th className="font-normal"><span className="sr-only">{t('hl7.out.columns.actions')}</span></th>
              </tr>
            </thead>
            <tbody>
              {outbox.data.items.flatMap((r) => [
                <tr key={r.id} tabIndex={0} data-hl7-row={r.id} data-hl7-status={r.status} onKeyDown={(e) => rowKey(e, r.id)}
                  className="border-t border-line outline-none focus:bg-accent-soft">
                  <td className="py-1 tabular-nums">{time(r.created)}</td>
                  <td>{r.patientName}</td>
                  <td className="font-mono text-xs">{r.accessionNumber ?? '—'}</td>
                  <td className="text-xs">{t(r.resultStatus === 'C' ? 'hl7.out.kinds.correction' : 'hl7.out.kinds.final')}</td>
                  <td className={`text-xs ${r.status === 'dead' ? 'text-danger' : r.status === 'sent' ? 'text-ok' : ''}`}>{t(`hl7.out.statuses.${r.status}`)}</td>
                  <td className="text-xs tabular-nums">{r.attempts}</td>
                  <td className="max-w-56 truncate text-xs" title={r.lastError ?? ''}>{r.status === 'sent' ? `${r.ackCode ?? ''} ${time(r.sentAt)}` : (r.lastError ?? '—')}</td>
                  <td className="whitespace-nowrap text-right">
                    {r.status !== 'pending' && (
                      <button type="button" className="btn h-6 px-2 text-xs" tabIndex={-1} disabled={busy} onClick={() => void resend(r.id)}>
                        {t('hl7.out.resend')} <KeyHint keys="R" />
                      </button>
                    )}
                  </td>
                </tr>,
                ...(open === r.id ? [
                  <tr key={`${r.id}-message`}>
                    <td colSpan={8} className="pb-2">
                      <pre className="max-h-64 overflow-auto whitespace-pre-wrap break-all rounded border border-line p-2 font-mono text-xs" data-testid="hl7-out-message">
                        {r.message.split('\r').join('\n')}
                      </pre>
                    </td>
                  </tr>,
                ] : []),
              ])}
            </tbody>
          </table>
        )}
        <p className="mt-1 text-xs text-fg-muted">{t('hl7.out.keys')}</p>
      </Section>
    </div>
  );
}
