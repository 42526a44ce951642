import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Page } from '../../../../contract/common';
import type { DicomAssociation, DicomNode, DicomSettings, EchoResult } from '../../../../contract/dicomAdmin';
import type { Device } from '../../../../contract/organizations';
import { useCommands } from '@/lib/commands';
import { errorText } from '@/lib/errorText';
import { http } from '@/lib/http';
import { useLoad } from '@/lib/useLoad';
import { dicomCommands } from '../commands';
import { Section } from '../ui/AdminFrame';
import { LoadState } from '@/ui/LoadState';
import { useWrite } from '../ui/useWrite';
import { devicesChanged, useDevicesChanged } from './devicesChanged';

type EchoState = { running: true } | { running: false; result: EchoResult } | { running: false; error: string };

/** The device row that has the focus (the commands act on it), or null. */
function focusedDeviceId(): number | null {
  const row = document.activeElement instanceof HTMLElement ? document.activeElement.closest<HTMLElement>('[data-dicom-device]') : null;
  return row ? Number(row.dataset.dicomDevice) : null;
}

/**
 * The organisation as a DICOM node (issue 33 "Screens", server/dicom/routes.ts): this server's AE title, host and
 * port to configure on the modalities; the "accept unknown senders" switch; each device's host and port (for Echo and
 * retrieval) with an Echo (C-ECHO) and its round trip; the recent associations. Keys: `e` echoes the focused device,
 * `h` edits its host and port, Shift+U turns the switch (src/features/admin/commands.ts).
 */
export function DicomPanel({ orgId }: { orgId: number }) {
  const { t, i18n } = useTranslation();
  const ids = useId();
  const base = `buckets/${orgId}`;
  const node = useLoad(`admin:org:${orgId}:dicom-node`, (signal) => http.get<DicomNode>(`${base}/dicom/node`, { signal }));
  const settings = useLoad(`admin:org:${orgId}:dicom-settings`, (signal) => http.get<DicomSettings>(`${base}/dicom/settings`, { signal }));
  const devices = useLoad(`admin:org:${orgId}:devices`, (signal) => http.get<Device[]>(`${base}/devices`, { signal }));
  const associations = useLoad(`admin:org:${orgId}:dicom-associations`, (signal) =>
    http.post<Page<DicomAssociation>>(`${base}/dicom/associations/query`, { limit: 20 }, { signal }));
  useDevicesChanged(orgId, devices.reload);
  const { busy, run } = useWrite();
  const [echoes, setEchoes] = useState<Record<number, EchoState>>({});
  const [editing, setEditing] = useState<{ id: number; host: string; port: string } | null>(null);
  const rows = useRef<HTMLTableSectionElement>(null);

  // The row to give the focus back to once it is on screen again (after an edit, the list reloads).
  const [refocus, setRefocus] = useState<number | null>(null);
  const focusRow = (id: number) => setRefocus(id);
  useEffect(() => {
    if (refocus === null) return;
    const row = rows.current?.querySelector<HTMLElement>(`[data-dicom-device="${refocus}"]`);
    if (row) { row.focus(); setRefocus(null); }
  }, [refocus, devices.data, editing]);

  const echo = async (id: number) => {
    if (echoes[id]?.running) return;
    setEchoes((v) => ({ ...v, [id]: { running: true } }));
    try {
      const result = await http.post<EchoResult>(`${base}/devices/${id}/echo`, {});
      setEchoes((v) => ({ ...v, [id]: { running: false, result } }));
    } catch (error) {
      setEchoes((v) => ({ ...v, [id]: { running: false, error: errorText(t, error) } }));
    }
    associations.reload();
  };
  const edit = (id: number) => {
    const d = devices.data?.find((x) => x.id === id);
    if (d) setEditing({ id, host: d.host ?? '', port: d.port === null ? '' : String(d.port) });
  };
  const save = async (event: FormEvent) => {
    event.preventDefault();
    const d = editing && devices.data?.find((x) => x.id === editing.id);
    if (!editing || !d) return;
    const host = editing.host.trim() === '' ? null : editing.host.trim();
    const port = editing.port.trim() === '' ? null : Number(editing.port.trim());
    const body = { name: d.name, modality: d.modality, aeTitle: d.aeTitle, room: d.room, deviceGroupId: d.deviceGroupId, host, port };
    if (await run(() => http.put(`${base}/devices/${d.id}`, body), t('admin.dicom.saved', { name: d.name }))) {
      setEditing(null);
      devicesChanged(orgId);
      focusRow(d.id);
    }
  };
  const toggleUnknown = () => {
    const next = !(settings.data?.acceptUnknownSenders ?? false);
    void run(() => http.put(`${base}/dicom/settings`, { acceptUnknownSenders: next }), t(next ? 'admin.dicom.unknownOn' : 'admin.dicom.unknownOff'))
      .then(() => settings.reload());
  };

  useCommands(dicomCommands, {
    focusedDevice: focusedDeviceId,
    echo: (id: number) => void echo(id),
    edit,
    toggleUnknown,
    ready: settings.data !== undefined && !busy,
  });

  const rowKey = (event: KeyboardEvent<HTMLTableRowElement>) => {
    // ↑/↓ walk the device rows (the commands act on the focused one).
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    const next = event.key === 'ArrowDown' ? event.currentTarget.nextElementSibling : event.currentTarget.previousElementSibling;
    if (next instanceof HTMLElement && next.dataset.dicomDevice) next.focus();
  };
  const echoText = (s: EchoState | undefined) => {
    if (!s) return '';
    if (s.running) return t('admin.dicom.echoRunning');
    if ('error' in s) return s.error;
    return s.result.ok ? t('admin.dicom.echoOk', { ms: s.result.ms }) : t(`admin.dicom.echoFailed.${s.result.failure ?? 'error'}`, { detail: s.result.detail ?? '', ms: s.result.ms });
  };
  const time = (iso: string) => new Date(iso).toLocaleString(i18n.language === 'en' ? 'en-GB' : 'zh-CN', { hour12: false });

  return (
    <Section title={t('admin.dicom.title')} hint={t('admin.dicom.hint')} testId="dicom-panel">
      {!node.data ? <LoadState error={node.error} onRetry={node.reload} /> : (
        <dl className="mb-3 grid max-w-xl grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-[13px]" data-testid="dicom-node">
          <dt className="text-fg-muted">{t('admin.dicom.aeTitle')}</dt><dd className="font-mono" data-testid="dicom-node-ae">{node.data.aeTitle ?? '—'}</dd>
          <dt className="text-fg-muted">{t('admin.dicom.host')}</dt><dd className="font-mono">{node.data.host}</dd>
          <dt className="text-fg-muted">{t('admin.dicom.port')}</dt><dd className="font-mono">{node.data.port ?? '—'}</dd>
          <dt className="text-fg-muted">{t('admin.dicom.status')}</dt>
          <dd className={node.data.listening ? 'text-ok' : 'text-fg-muted'}>{t(node.data.listening ? 'admin.dicom.listening' : 'admin.dicom.off')}</dd>
        </dl>
      )}
      <label className="mb-3 flex items-center gap-2 text-[13px]">
        <input type="checkbox" data-testid="dicom-accept-unknown" checked={settings.data?.acceptUnknownSenders ?? false} disabled={busy || !settings.data}
          onChange={toggleUnknown} />
        {t('admin.dicom.acceptUnknown')}
        <span className="text-xs text-fg-muted">{t('admin.dicom.acceptUnknownHint')}</span>
      </label>

      <h3 className="mb-1 text-xs font-semibold">{t('admin.dicom.devices')}</h3>
      {!devices.data ? <LoadState error={devices.error} onRetry={devices.reload} /> : devices.data.length === 0 ? (
        <p className="mb-3 text-[13px] text-fg-muted">{t('admin.ordered.empty')}</p>
      ) : (
        <table className="mb-3 w-full text-[13px]" data-testid="dicom-devices">
          <thead className="text-left text-xs text-fg-muted">
            <tr><th className="py-1 font-normal">{t('admin.ordered.fields.name')}</th><th className="font-normal">{t('admin.ordered.fields.aeTitle')}</th>
              <th className="font-normal">{t('admin.dicom.host')}</th><th className="font-normal">{t('admin.dicom.port')}</th>
              <th className="font-normal">{t('admin.dicom.echo')}</th><th className="font-normal"><span className="sr-only">{t('admin.orgParts.actions')}</span></th></tr>
          </thead>
          <tbody ref={rows}>
            {devices.data.map((d) => editing?.id === d.id ? (
              <tr key={d.id}>
                <td colSpan={6} className="py-1">
                  <form onSubmit={save} className="flex flex-wrap items-end gap-2" onKeyDown={(e) => { if (e.key === 'Escape') { e.preventDefault(); setEditing(null); focusRow(d.id); } }}>
                    <span className="min-w-32 self-center">{d.name}</span>
                    <div><label htmlFor={`${ids}-host`} className="mb-0.5 block text-xs text-fg-muted">{t('admin.dicom.host')}</label>
                      <input id={`${ids}-host`} autoFocus className="input h-7 w-48 text-[13px]" value={editing.host} maxLength={253}
                        onChange={(e) => setEditing({ ...editing, host: e.target.value })} /></div>
                    <div><label htmlFor={`${ids}-port`} className="mb-0.5 block text-xs text-fg-muted">{t('admin.dicom.port')}</label>
                      <input id={`${ids}-port`} className="input h-7 w-24 text-[13px]" inputMode="numeric" value={editing.port} maxLength={5}
                        onChange={(e) => setEditing({ ...editing, port: e.target.value.replace(/\D/g, '') })} /></div>
                    <button type="submit" className="btn btn-primary h-7 px-3 text-xs" disabled={busy}>{t('admin.dicom.save')}</button>
                    <button type="button" className="btn h-7 px-3 text-xs" onClick={() => { setEditing(null); focusRow(d.id); }}>{t('admin.dicom.cancel')}</button>
                  </form>
                </td>
              </tr>
            ) : (
              <tr key={d.id} tabIndex={0} data-dicom-device={d.id} onKeyDown={rowKey} className="border-t border-line outline-none focus:bg-accent-soft">
                <td className="py-1">{d.name}</td>
                <td className="font-mono text-xs">{d.aeTitle ?? '—'}</td>
                <td className="font-mono text-xs">{d.host ?? '—'}</td>
                <td className="font-mono text-xs">{d.port ?? '—'}</td>
                <td className="text-xs" data-testid="dicom-echo-result" aria-live="polite">{echoText(echoes[d.id])}</td>
                <td className="whitespace-nowrap text-right">
                  <button type="button" className="btn h-6 px-2 text-xs" tabIndex={-1} onClick={() => edit(d.id)}>{t('admin.dicom.editAddress')}</button>{' '}
                  <button type="button" className="btn h-6 px-2 text-xs" tabIndex={-1} disabled={echoes[d.id]?.running === true} onClick={() => void echo(d.id)}>
                    {t('admin.dicom.echo')} <kbd className="text-fg-muted">E</kbd>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <h3 className="mb-1 text-xs font-semibold">{t('admin.dicom.associations')}</h3>
      {!associations.data ? <LoadState error={associations.error} onRetry={associations.reload} /> : associations.data.items.length === 0 ? (
        <p className="text-[13px] text-fg-muted">{t('admin.dicom.noAssociations')}</p>
      ) : (
        <table className="w-full text-[13px]" data-testid="dicom-associations">
          <thead className="text-left text-xs text-fg-muted">
            <tr><th className="py-1 font-normal">{t('admin.dicom.time')}</th><th className="font-normal">{t('admin.dicom.callingAe')}</th>
              <th className="font-normal">{t('admin.dicom.services')}</th><th className="font-normal">{t('admin.dicom.counts')}</th>
              <th className="font-normal">{t('admin.dicom.outcome')}</th><th className="font-normal">{t('admin.dicom.errors')}</th></tr>
          </thead>
          <tbody>
            {associations.data.items.map((a) => (
              <tr key={a.id} className="border-t border-line">
                <td className="py-1 tabular-nums">{time(a.started)}</td>
                <td className="font-mono text-xs">{a.callingAe}</td>
                <td className="text-xs">{a.services.join(', ') || '—'}</td>
                <td className="text-xs tabular-nums">{t('admin.dicom.countsValue', { stored: a.stored, failed: a.failed, found: a.found })}</td>
                <td className="text-xs">{t(`admin.dicom.outcomes.${a.outcome}`, { defaultValue: a.outcome })}</td>
                <td className="max-w-64 truncate text-xs text-danger" title={a.errors.join('\n')}>{a.errors.join('; ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}
