import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { AccountSuggestion, MyOrganization } from '../../../contract/accounts';
import { MODALITIES, PATIENT_SOURCES } from '../../../contract/constants';
import { http } from '@/lib/http';
import { DEFAULT_VIEW, type PatientSource, type WorklistView } from './view';

/** Statuses offered to filter by; `locked` is a moment, not a place in the lifecycle. */
const STATUS_CHOICES = ['none', 'partial', 'final', 'advised', 'hold', 'cancelled', 'corrected', 'printed'] as const;

function Field({ label, children }: { label: string; children: ReactNode }) {
  const id = useId();
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <span id={id} className="text-xs font-medium text-fg-muted">{label}</span>
      <div role="group" aria-labelledby={id} className="flex min-h-7 flex-wrap items-center gap-1">{children}</div>
    </div>
  );
}

function Toggle<T extends string>({ value, list, onChange, label }: { value: T; list: readonly T[]; onChange: (next: T[]) => void; label: string }) {
  const on = list.includes(value);
  return (
    <button
      type="button"
      aria-pressed={on}
      onClick={() => onChange(on ? list.filter((v) => v !== value) : [...list, value])}
      className={`h-6 rounded border px-1.5 text-xs ${on ? 'border-accent bg-accent-soft text-fg' : 'border-line text-fg-muted hover:text-fg'}`}
    >
      {label}
    </button>
  );
}

/**
 * The advanced search (core §2): a panel under the toolbar, filled from the URL and applied as one change, so
 * Back undoes the whole search. Enter applies from any field; Escape closes without applying.
 */
export function AdvancedSearch({ view, onApply, onClose }: { view: WorklistView; onApply: (view: WorklistView) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(view);
  const [orgs, setOrgs] = useState<MyOrganization[]>([]);
  const [people, setPeople] = useState<AccountSuggestion[]>([]);
  const [reporterText, setReporterText] = useState('');
  const first = useRef<HTMLInputElement>(null);
  const listId = useId();

  useEffect(() => {
    first.current?.focus();
    const controller = new AbortController();
    http.get<MyOrganization[]>('accounts/me/organizations', { signal: controller.signal }).then(setOrgs, () => undefined);
    return () => controller.abort();
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      http.get<AccountSuggestion[]>('accounts/suggestions', { query: { q: reporterText.trim() }, signal: controller.signal }).then((found) => {
        setPeople(found);
      }, () => undefined);
    }, 200);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [reporterText]);

  const set = <K extends keyof WorklistView>(key: K, value: WorklistView[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
    onClose();
  };
  const reporterName = people.find((p) => p.id === draft.reporterId);

  return (
    <form
      onSubmit={submit}
      aria-label={t('worklist.advanced.title')}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          onClose();
        }
      }}
      className="grid grid-cols-2 gap-x-4 gap-y-2 border-b border-line bg-surface px-3 py-2.5 md:grid-cols-4 xl:grid-cols-6"
    >
      <label className="flex flex-col gap-1 text-xs font-medium text-fg-muted">
        {t('worklist.advanced.patientName')}
        <input ref={first} className="input h-7 text-[13px]" value={draft.patientName} maxLength={64} onChange={(e) => set('patientName', e.target.value)} />
      </label>
      <label className="flex flex-col gap-1 text-xs font-medium text-fg-muted">
        {t('worklist.advanced.patientId')}
        <input className="input h-7 text-[13px]" value={draft.patientId} maxLength={64} onChange={(e) => set('patientId', e.target.value)} />
      </label>
      <label className="flex flex-col gap-1 text-xs font-medium text-fg-muted">
        {t('worklist.advanced.accession')}
        <input className="input h-7 text-[13px]" value={draft.accession} maxLength={64} onChange={(e) => set('accession', e.target.value)} />
      </label>
      <label className="flex flex-col gap-1 text-xs font-medium text-fg-muted">
        {t('worklist.advanced.bodyPart')}
        <input className="input h-7 text-[13px]" value={draft.bodyPart} maxLength={64} onChange={(e) => set('bodyPart', e.target.value)} />
      </label>
      <label className="flex flex-col gap-1 text-xs font-medium text-fg-muted">
        {t('worklist.advanced.from')}
        <input type="date" className="input h-7 text-[13px]" value={draft.from ?? ''} max={draft.to ?? undefined} onChange={(e) => set('from', e.target.value || null)} />
      </label>
      <label className="flex flex-col gap-1 text-xs font-medium text-fg-muted">
        {t('worklist.advanced.to')}
        <input type="date" className="input h-7 text-[13px]" value={draft.to ?? ''} min={draft.from ?? undefined} onChange={(e) => set('to', e.target.value || null)} />
      </label>
      <label className="flex flex-col gap-1 text-xs font-medium text-fg-muted">
        {t('worklist.advanced.organisation')}
        <select className="input h-7 py-0 text-[13px]" value={draft.bucketId ?? ''} onChange={(e) => set('bucketId', e.target.value ? Number(e.target.value) : null)}>
          <option value="">{t('worklist.advanced.any')}</option>
          {orgs.map((org) => <option key={org.id} value={org.id}>{org.name}</option>)}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-xs font-medium text-fg-muted">
        {t('worklist.advanced.reporter')}
        <input
          className="input h-7 text-[13px]"
          list={listId}
          value={reporterText || (reporterName ? `${reporterName.name} (${reporterName.username})` : draft.reporterId ? `#${draft.reporterId}` : '')}
          placeholder={t('worklist.advanced.any')}
          onChange={(e) => {
            const typed = e.target.value;
            const match = people.find((p) => `${p.name} (${p.username})` === typed);
            setReporterText(match ? '' : typed);
            set('reporterId', match ? match.id : typed.trim() ? draft.reporterId : null);
          }}
        />
        <datalist id={listId}>
          {people.map((p) => <option key={p.id} value={`${p.name} (${p.username})`} />)}
        </datalist>
      </label>
      <div className="col-span-2">
        <Field label={t('worklist.advanced.modality')}>
          {MODALITIES.map((m) => <Toggle key={m} value={m as string} list={draft.modalities} onChange={(v) => set('modalities', v)} label={m} />)}
        </Field>
      </div>
      <div className="col-span-2">
        <Field label={t('worklist.advanced.source')}>
          {PATIENT_SOURCES.map((s) => <Toggle key={s} value={s as PatientSource} list={draft.sources} onChange={(v) => set('sources', v)} label={t(`worklist.source.${s}`)} />)}
        </Field>
      </div>
      <div className="col-span-2 md:col-span-3">
        <Field label={t('worklist.advanced.status')}>
          {STATUS_CHOICES.map((s) => <Toggle key={s} value={s} list={draft.statuses} onChange={(v) => set('statuses', v as WorklistView['statuses'])} label={t(`worklist.status.${s}`)} />)}
        </Field>
      </div>
      <label className="flex items-center gap-2 self-end pb-1 text-[13px]">
        <input type="checkbox" checked={draft.urgent} onChange={(e) => set('urgent', e.target.checked)} />
        {t('worklist.advanced.urgentOnly')}
      </label>
      <div className="col-span-2 flex items-end justify-end gap-2 md:col-span-4 xl:col-span-6">
        <button type="button" className="btn h-7 text-[13px]" onClick={() => setDraft({ ...DEFAULT_VIEW, tab: draft.tab, deleted: draft.deleted, quick: draft.quick, today: draft.today, origin: draft.origin, text: draft.text, sort: draft.sort })}>
          {t('worklist.advanced.reset')}
        </button>
        <button type="button" className="btn h-7 text-[13px]" onClick={onClose}>{t('common.cancel')}</button>
        <button type="submit" className="btn btn-primary h-7 text-[13px]">{t('worklist.advanced.apply')}</button>
      </div>
    </form>
  );
}
