import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '@/lib/http';
import { useLoad } from '@/lib/useLoad';
import { ConfirmDialog } from '@/ui/ConfirmDialog';
import { Section } from '../ui/AdminFrame';
import { SortableList } from '../ui/SortableList';
import { LoadState } from '@/ui/LoadState';
import { useResort } from '../ui/useResort';
import { useWrite } from '../ui/useWrite';
import { devicesChanged, useDevicesChanged } from './devicesChanged';

/** The other ordered lists of an organisation: each its own add form, all re-sorted the same way (server/http/order.ts). */
export type OrderedKind = 'steps' | 'device-groups' | 'devices' | 'queue-types';

interface Row {
  id: number; name: string; modality?: string | null; room?: string | null; prefix?: string; aeTitle?: string | null; host?: string | null; port?: number | null;
  /** Steps only (areas §3): the report is written during the exam (no images needed); the local video is shown. */
  bodyPart?: string | null; procedureId?: number | null; reportDuringExam?: boolean; showLocalVideo?: boolean;
}
type StepFlag = 'reportDuringExam' | 'showLocalVideo';
const STEP_FLAGS: readonly StepFlag[] = ['reportDuringExam', 'showLocalVideo'];
type Field = 'name' | 'modality' | 'room' | 'prefix' | 'aeTitle' | 'host' | 'port';

const FIELDS: Record<OrderedKind, Field[]> = {
  steps: ['name', 'modality'],
  'device-groups': ['name'],
  devices: ['name', 'modality', 'aeTitle', 'room', 'host', 'port'],
  'queue-types': ['prefix', 'name', 'modality', 'room'],
};

function bodyOf(kind: OrderedKind, form: Record<Field, string>, flags: Record<StepFlag, boolean>) {
  const text = (v: string) => (v.trim() === '' ? null : v.trim());
  if (kind === 'device-groups') return { name: form.name.trim() };
  if (kind === 'steps') return { name: form.name.trim(), modality: form.modality.trim().toUpperCase(), ...flags };
  if (kind === 'devices') return { name: form.name.trim(), modality: form.modality.trim().toUpperCase(), aeTitle: text(form.aeTitle), room: text(form.room),
    host: text(form.host), port: form.port.trim() === '' ? null : Number(form.port.trim()) };
  return { prefix: form.prefix.trim().toUpperCase(), name: form.name.trim(), modality: text(form.modality.toUpperCase()), room: text(form.room) };
}

const EMPTY: Record<Field, string> = { name: '', modality: '', room: '', prefix: '', aeTitle: '', host: '', port: '' };
const NO_FLAGS: Record<StepFlag, boolean> = { reportDuringExam: false, showLocalVideo: false };
const NOTHING = () => {};

/** One ordered list with its add form: Alt+↑/↓ or drag re-sorts, × or Delete on the row deletes (asks first); a step's flags switch in place. */
export function OrderedList({ orgId, kind }: { orgId: number; kind: OrderedKind }) {
  const { t } = useTranslation();
  const ids = useId();
  const base = `buckets/${orgId}/${kind}`;
  const list = useLoad(`admin:org:${orgId}:${kind}`, (signal) => http.get<Row[]>(base, { signal }));
  useDevicesChanged(orgId, kind === 'devices' ? list.reload : NOTHING);
  // The devices are also on the DICOM panel: it loads again after a change here.
  const changed = () => { if (kind === 'devices') devicesChanged(orgId); };
  const [form, setForm] = useState(EMPTY);
  const [flags, setFlags] = useState(NO_FLAGS);
  const [deleting, setDeleting] = useState<Row | null>(null);
  const { busy, run } = useWrite();
  const fields = FIELDS[kind];
  const ready = fields.filter((f) => f === 'name' || f === 'prefix' || (f === 'modality' && kind !== 'queue-types')).every((f) => form[f].trim() !== '');

  const resort = useResort((order) => http.post(`${base}/resort`, { ids: order }), list.reload);
  const move = (order: number[]) => {
    const byId = new Map((list.data ?? []).map((r) => [r.id, r]));
    list.put(() => order.map((id) => byId.get(id)!));
    resort(order);
  };
  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (ready && await run(() => http.post(base, bodyOf(kind, form, flags)), t('admin.ordered.added', { name: form.name.trim() }))) {
      setForm(EMPTY);
      setFlags(NO_FLAGS);
      list.reload();
      changed();
    }
  };

  // A step keeps every other field as it is: the PUT sends the whole step with one flag turned over.
  const toggle = (r: Row, flag: StepFlag) => {
    const step = { name: r.name, modality: r.modality ?? '', bodyPart: r.bodyPart ?? null, procedureId: r.procedureId ?? null,
      reportDuringExam: r.reportDuringExam === true, showLocalVideo: r.showLocalVideo === true, [flag]: r[flag] !== true };
    void run(() => http.put(`${base}/${r.id}`, step), t(step[flag] ? 'admin.ordered.flagOn' : 'admin.ordered.flagOff', { name: r.name, flag: t(`admin.ordered.flags.${flag}`) }))
      .then(() => list.reload());
  };

  return (
    <Section title={t(`admin.ordered.${kind}.title`)} hint={t(`admin.ordered.${kind}.hint`)} testId={`ordered-${kind}`}>
      <form onSubmit={add} className="mb-2 flex max-w-4xl flex-wrap items-end gap-2">
        {fields.map((f) => (
          <div key={f} className={f === 'name' ? 'min-w-40 flex-1' : 'w-28'}>
            <label htmlFor={`${ids}-${f}`} className="mb-0.5 block text-xs text-fg-muted">{t(`admin.ordered.fields.${f}`)}</label>
            <input id={`${ids}-${f}`} className="input h-7 text-[13px]" value={form[f]} maxLength={f === 'prefix' ? 2 : f === 'aeTitle' ? 16 : f === 'port' ? 5 : f === 'host' ? 253 : 64}
              onChange={(e) => setForm((v) => ({ ...v, [f]: e.target.value }))} />
          </div>
        ))}
        {kind === 'steps' && STEP_FLAGS.map((flag) => (
          <label key={flag} className="flex h-7 items-center gap-1.5 text-xs">
            <input type="checkbox" checked={flags[flag]} onChange={(e) => setFlags((v) => ({ ...v, [flag]: e.target.checked }))} />
            {t(`admin.ordered.flags.${flag}`)}
          </label>
        ))}
        <button type="submit" className="btn btn-primary h-7 px-3 text-xs" disabled={busy || !ready}>{t('admin.org.add')}</button>
      </form>
      {!list.data ? <LoadState error={list.error} onRetry={list.reload} /> : list.data.length === 0 ? (
        <p className="text-[13px] text-fg-muted">{t('admin.ordered.empty')}</p>
      ) : (
        <div className="max-w-4xl">
          <SortableList items={list.data} label={t(`admin.ordered.${kind}.title`)} onMove={move} onDelete={(r) => setDeleting(r)} disabled={busy} testId={`ordered-list-${kind}`}
            render={(r) => (
              <>
                {r.prefix && <span className="w-8 shrink-0 font-mono text-xs font-semibold">{r.prefix}</span>}
                <span className="min-w-0 flex-1 truncate" data-row-name>{r.name}</span>
                {r.modality && <span className="w-12 shrink-0 text-xs text-fg-muted">{r.modality}</span>}
                {r.aeTitle && <span className="w-28 shrink-0 font-mono text-xs text-fg-muted">{r.aeTitle}</span>}
                {r.room && <span className="w-24 shrink-0 truncate text-xs text-fg-muted">{r.room}</span>}
                {r.host && <span className="w-40 shrink-0 truncate font-mono text-xs text-fg-muted">{r.host}:{r.port ?? ''}</span>}
                {kind === 'steps' && STEP_FLAGS.map((flag) => (
                  <button key={flag} type="button" aria-pressed={r[flag] === true} disabled={busy} data-step-flag={flag} onClick={() => toggle(r, flag)}
                    className={`h-6 shrink-0 rounded border px-1.5 text-[11px] ${r[flag] === true ? 'border-accent bg-accent-soft text-accent' : 'border-line text-fg-muted'}`}>
                    {t(`admin.ordered.flags.${flag}`)}
                  </button>
                ))}
                <button type="button" className="icon-button h-6 w-6 text-xs" tabIndex={-1} aria-label={t('admin.procedures.delete', { name: r.name })} onClick={() => setDeleting(r)}>×</button>
              </>
            )} />
        </div>
      )}
      <ConfirmDialog open={deleting !== null} title={t('admin.ordered.deleteTitle')} confirmLabel={t('admin.delete')} busy={busy} focus="cancel"
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && void run(() => http.delete(`${base}/${deleting.id}`), t('admin.procedures.deleted', { name: deleting.name })).then((ok) => {
          if (ok) { setDeleting(null); list.reload(); changed(); }
        })}>
        <p className="text-[13px]">{t('admin.procedures.deleteBody', { name: deleting?.name ?? '' })}</p>
      </ConfirmDialog>
    </Section>
  );
}
