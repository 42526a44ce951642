import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Page } from '../../../contract/common';
import { HL7_OUTCOMES, type Hl7MessageRow, type Hl7Settings } from '../../../contract/hl7';
import { useCommands } from '@/lib/commands';
import { errorText } from '@/lib/errorText';
import { http, isSessionEndingError } from '@/lib/http';
import { MAIN_CONTROL } from '@/lib/mainFocus';
import { toasts } from '@/lib/toasts';
import { useLoad } from '@/lib/useLoad';
import { KeyHint, Section } from '@/ui/Section';
import { hl7InboundCommands } from './commands';

const SEARCH_FIELDS = ['controlId', 'patientId', 'orderId'] as const;
type SearchField = (typeof SEARCH_FIELDS)[number];
const TYPES = ['ORM^O01', 'OMI^O23', 'ADT^A08', 'ADT^A40'] as const;

/** "FACILITY" or "FACILITY^APPLICATION" per line ↔ the settings' facility list. */
const facilitiesText = (s: Hl7Settings) => s.facilities.map((f) => (f.application ? `${f.facility}^${f.application}` : f.facility)).join('\n');
const facilitiesOf = (text: string) => text.split('\n').map((l) => l.trim()).filter(Boolean).map((l) => {
  const [facility = '', application = ''] = l.split('^');
  return { facility: facility.trim(), application: application.trim() };
});

/**
 * Orders in over HL7 v2 (issue 36, server/hl7): the listener's port, the switch and the sending facilities that are
 * this organisation's, and the inbound message log — search by control id, patient or order number, outcome and
 * type; a row opens its raw message and the ACK it got. Keys: Shift+F the search, Shift+H the switch.
 */
export function InboundPanel({ orgId }: { orgId: number }) {
  const { t, i18n } = useTranslation();
  const ids = useId();
  const base = `buckets/${orgId}/hl7`;
  const settings = useLoad(`hl7:${orgId}:settings`, (signal) => http.get<Hl7Settings>(`${base}/settings`, { signal }));
  const [draft, setDraft] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [field, setField] = useState<SearchField>('controlId');
  const [term, setTerm] = useState('');
  const [outcome, setOutcome] = useState('');
  const [type, setType] = useState('');
  const [open, setOpen] = useState<number | null>(null);
  const search = useRef<HTMLInputElement>(null);

  const filters = [
    ...(term.trim() ? [{ field, operator: 'like', values: [term.trim()] }] : []),
    ...(outcome ? [{ field: 'outcome', operator: 'equal', values: [outcome] }] : []),
    ...(type ? [{ field: 'messageType', operator: 'equal', values: [type] }] : []),
  ];
  const key = JSON.stringify(filters);
  const log = useLoad(`hl7:${orgId}:messages:${key}`, (signal) => http.post<Page<Hl7MessageRow>>(`${base}/messages/query`, { limit: 50, filters }, { signal }));

  // The facilities as typed, or as saved until the admin types.
  const text = draft ?? (settings.data ? facilitiesText(settings.data) : '');

  const write = async (enabled: boolean, text: string) => {
    if (busy) return;
    setBusy(true);
    try {
      await http.put(`${base}/settings`, { enabled, facilities: facilitiesOf(text) });
      toasts.show({ message: t('hl7.inbound.saved'), kind: 'success', duration: 2500 });
      settings.reload();
    } catch (error) {
      if (!isSessionEndingError(error)) toasts.show({ message: errorText(t, error), kind: 'error' });
    } finally {
      setBusy(false);
    }
  };
  const save = (event: FormEvent) => {
    event.preventDefault();
    if (settings.data) void write(settings.data.enabled, text);
  };
  const toggle = () => { if (settings.data) void write(!settings.data.enabled, text); };

  useCommands(hl7InboundCommands, { focusSearch: () => search.current?.focus(), toggleEnabled: toggle, ready: !!settings.data && !busy });

  const time = (iso: string) => new Date(iso).toLocaleString(i18n.language === 'en' ? 'en-GB' : 'zh-CN', { hour12: false });
  const s = settings.data;
  return (
    <div className="flex max-w-5xl flex-col gap-4" data-testid="hl7-inbound">
      <Section title={t('hl7.inbound.title')} testId="hl7-inbound-settings">
      <p className="mb-2 text-xs text-fg-muted">{t('hl7.inbound.hint')}</p>
      {!s ? (
        <p className="text-[13px] text-fg-muted">{settings.error ? errorText(t, settings.error) : t('common.loading')}</p>
      ) : (
        <>
          <dl className="mb-3 grid max-w-xl grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-[13px]" data-testid="hl7-listener">
            <dt className="text-fg-muted">{t('hl7.inbound.port')}</dt>
            <dd className="font-mono">{s.listener.port ?? t('hl7.inbound.off')}{s.listener.tls ? ' (TLS)' : ''}</dd>
            <dt className="text-fg-muted">{t('hl7.inbound.actingAccount')}</dt>
            <dd>{s.actingAccount?.name ?? '—'}</dd>
          </dl>
          <label className="mb-3 flex items-center gap-2 text-[13px]">
            <input type="checkbox" data-testid="hl7-enabled" checked={s.enabled} disabled={busy} onChange={toggle} {...MAIN_CONTROL} />
            {t('hl7.inbound.enabled')} <KeyHint keys="Shift+H" />
          </label>
          <form onSubmit={save} className="mb-4 flex flex-wrap items-end gap-2">
            <div>
              <label htmlFor={`${ids}-fac`} className="mb-0.5 block text-xs text-fg-muted">{t('hl7.inbound.facilities')}</label>
              <textarea id={`${ids}-fac`} data-testid="hl7-facilities" className="input h-20 w-72 font-mono text-[13px]" value={text}
                onChange={(e) => setDraft(e.target.value)} />
              <p className="text-xs text-fg-muted">{t('hl7.inbound.facilitiesHint')}</p>
            </div>
            <button type="submit" className="btn btn-primary h-7 px-3 text-xs" disabled={busy}>{t('common.save')}</button>
          </form>
        </>
      )}

      </Section>

      <Section title={t('hl7.inbound.log')} count={log.data?.total} testId="hl7-inbound-log"
        actions={(
      <>
        <select aria-label={t('hl7.inbound.searchBy')} className="input h-7 w-auto text-[13px]" value={field} onChange={(e) => setField(e.target.value as SearchField)}>
          {SEARCH_FIELDS.map((f) => <option key={f} value={f}>{t(`hl7.inbound.fields.${f}`)}</option>)}
        </select>
        <input ref={search} type="search" data-testid="hl7-search" aria-label={t('hl7.inbound.search')} placeholder={t('hl7.inbound.search')}
          className="input h-7 w-56 text-[13px]" value={term} onChange={(e) => setTerm(e.target.value)} />
        <select aria-label={t('hl7.inbound.outcome')} className="input h-7 w-auto text-[13px]" value={outcome} onChange={(e) => setOutcome(e.target.value)}>
          <option value="">{t('hl7.inbound.anyOutcome')}</option>
          {HL7_OUTCOMES.map((o) => <option key={o} value={o}>{t(`hl7.inbound.outcomes.${o}`)}</option>)}
        </select>
        <select aria-label={t('hl7.inbound.type')} className="input h-7 w-auto text-[13px]" value={type} onChange={(e) => setType(e.target.value)}>
          <option value="">{t('hl7.inbound.anyType')}</option>
          {TYPES.map((x) => <option key={x} value={x}>{x}</option>)}
        </select>
      </>
        )}>
      {!log.data ? (
        <p className="text-[13px] text-fg-muted">{log.error ? errorText(t, log.error) : t('common.loading')}</p>
      ) : log.data.items.length === 0 ? (
        <p className="text-[13px] text-fg-muted">{t('hl7.inbound.empty')}</p>
      ) : (
        <table className="w-full text-[13px]" data-testid="hl7-messages">
          <thead className="text-left text-xs text-fg-muted">
            <tr><th className="py-1 font-normal">{t('hl7.inbound.time')}</th><th className="font-normal">{t('hl7.inbound.fields.controlId')}</th>
              <th className="font-normal">{t('hl7.inbound.type')}</th><th className="font-normal">{t('hl7.inbound.facility')}</th>
              <th className="font-normal">{t('hl7.inbound.fields.patientId')}</th><th className="font-normal">{t('hl7.inbound.outcome')}</th>
              <th className="font-normal">{t('hl7.inbound.error')}</th></tr>
          </thead>
          <tbody>
            {log.data.items.map((m) => [
              <tr key={m.id} tabIndex={0} className="cursor-pointer border-t border-line outline-none focus:bg-accent-soft" aria-expanded={open === m.id}
                onClick={() => setOpen(open === m.id ? null : m.id)}
                onKeyDown={(e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); setOpen(open === m.id ? null : m.id); } }}>
                <td className="py-1 tabular-nums">{time(m.created)}</td>
                <td className="font-mono text-xs">{m.controlId ?? '—'}</td>
                <td className="font-mono text-xs">{m.messageType || '—'}</td>
                <td className="font-mono text-xs">{m.facility || '—'}</td>
                <td className="font-mono text-xs">{m.patientId ?? '—'}</td>
                <td className={`text-xs ${m.ackCode === 'AA' ? 'text-ok' : 'text-danger'}`}>{m.ackCode ?? ''} {t(`hl7.inbound.outcomes.${m.outcome}`)}{m.repeats > 0 ? ` ×${m.repeats + 1}` : ''}</td>
                <td className="max-w-64 truncate text-xs" title={m.error ?? ''}>{m.error ?? ''}</td>
              </tr>,
              open === m.id && (
                <tr key={`${m.id}-raw`}>
                  <td colSpan={7} className="pb-2">
                    <div className="grid gap-2 md:grid-cols-2">
                      <div><h4 className="text-xs text-fg-muted">{t('hl7.inbound.raw')}</h4>
                        <pre className="max-h-64 overflow-auto whitespace-pre-wrap break-all rounded bg-surface-2 p-2 font-mono text-xs" data-testid="hl7-raw">{m.raw.replace(/\r/g, '\n')}</pre></div>
                      <div><h4 className="text-xs text-fg-muted">{t('hl7.inbound.ack')}</h4>
                        <pre className="max-h-64 overflow-auto whitespace-pre-wrap break-all rounded bg-surface-2 p-2 font-mono text-xs">{(m.ack ?? '').replace(/\r/g, '\n')}</pre></div>
                    </div>
                  </td>
                </tr>
              ),
            ])}
          </tbody>
        </table>
      )}
      </Section>
    </div>
  );
}
