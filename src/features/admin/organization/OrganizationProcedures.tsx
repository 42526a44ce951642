import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Organization, Procedure } from '../../../../contract/organizations';
import { useLoad } from '@/lib/useLoad';
import { ConfirmDialog } from '@/ui/ConfirmDialog';
import { organizationsApi } from '../api';
import { Section } from '../ui/AdminFrame';
import { SortableList } from '../ui/SortableList';
import { useResort } from '../ui/useResort';
import { useWrite } from '../ui/useWrite';
import { LoadState } from '@/ui/LoadState';
import { DicomPanel } from './DicomPanel';
import { OrderedList } from './OrderedLists';

const EMPTY = { code: '', name: '', enDescription: '', modality: 'CT', price: '' };

/**
 * /groups/{g}/organizations/{o}/procedures: the organisation's procedures in their order (the registry offers them
 * so). Drag by the handle, or Alt+↑/↓ on the focused row; the new order is saved at once and kept.
 */
export function OrganizationProcedures({ org }: { org: Organization }) {
  const { t } = useTranslation();
  const ids = useId();
  const list = useLoad(`admin:org:${org.id}:procedures`, (signal) => organizationsApi.procedures(org.id, { signal }));
  const [form, setForm] = useState(EMPTY);
  const [deleting, setDeleting] = useState<Procedure | null>(null);
  const { busy, run } = useWrite();

  const resort = useResort((order) => organizationsApi.resortProcedures(org.id, order), list.reload);
  const move = (order: number[]) => {
    const byId = new Map((list.data ?? []).map((p) => [p.id, p]));
    list.put(() => order.map((id, sortOrder) => ({ ...byId.get(id)!, sortOrder })));
    resort(order);
  };
  const add = async (event: FormEvent) => {
    event.preventDefault();
    const input = { code: form.code.trim(), name: form.name.trim(), modality: form.modality.trim().toUpperCase(), price: Number(form.price || 0), enDescription: form.enDescription.trim() || null };
    if (input.code && input.name && await run(() => organizationsApi.createProcedure(org.id, input), t('admin.procedures.added', { name: input.name }))) {
      setForm(EMPTY);
      list.reload();
    }
  };
  const field = (key: keyof typeof EMPTY, label: string, className: string) => (
    <div className={className}>
      <label htmlFor={`${ids}-${key}`} className="mb-0.5 block text-xs text-fg-muted">{label}</label>
      <input id={`${ids}-${key}`} className="input h-7 text-[13px]" value={form[key]} inputMode={key === 'price' ? 'decimal' : undefined}
        onChange={(e) => setForm((f) => ({ ...f, [key]: e.target.value }))} />
    </div>
  );

  return (
    <>
    <Section title={t('admin.procedures.title')} hint={t('admin.procedures.hint')}>
      <form onSubmit={add} className="mb-3 flex max-w-4xl flex-wrap items-end gap-2" data-testid="procedure-add">
        {field('code', t('admin.procedures.code'), 'w-28')}
        {field('name', t('admin.procedures.name'), 'min-w-48 flex-1')}
        {field('enDescription', t('admin.procedures.enDescription'), 'min-w-40 flex-1')}
        {field('modality', t('admin.procedures.modality'), 'w-24')}
        {field('price', t('admin.procedures.price'), 'w-24')}
        <button type="submit" className="btn btn-primary h-7 px-3 text-xs" disabled={busy || !form.code.trim() || !form.name.trim()}>{t('admin.org.add')}</button>
      </form>
      {!list.data ? <LoadState error={list.error} onRetry={list.reload} /> : (
        <div className="max-w-4xl">
          <SortableList items={list.data} label={t('admin.procedures.title')} onMove={move} disabled={busy} testId="procedure-list"
            render={(p) => (
              <>
                <span className="w-20 shrink-0 font-mono text-xs text-fg-muted">{p.code}</span>
                <span className="min-w-0 flex-1 truncate" data-procedure-name>{p.name}</span>
                {p.enDescription && <span className="min-w-0 max-w-48 truncate text-xs text-fg-muted" lang="en">{p.enDescription}</span>}
                <span className="w-12 shrink-0 text-xs text-fg-muted">{p.modality}</span>
                <span className="w-20 shrink-0 text-right tabular-nums text-xs">{p.price.toFixed(2)}</span>
                <button type="button" className="icon-button h-6 w-6 text-xs" tabIndex={-1} aria-label={t('admin.procedures.delete', { name: p.name })} onClick={() => setDeleting(p)}>×</button>
              </>
            )} onDelete={(p) => setDeleting(p)} />
        </div>
      )}
      <ConfirmDialog open={deleting !== null} title={t('admin.procedures.deleteTitle')} confirmLabel={t('admin.delete')} busy={busy} focus="cancel"
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && void run(() => organizationsApi.deleteProcedure(org.id, deleting.id), t('admin.procedures.deleted', { name: deleting.name })).then((ok) => {
          if (ok) { setDeleting(null); list.reload(); }
        })}>
        <p className="text-[13px]">{t('admin.procedures.deleteBody', { name: deleting?.name ?? '' })}</p>
      </ConfirmDialog>
    </Section>
    {(['steps', 'device-groups', 'devices', 'queue-types'] as const).map((kind) => <OrderedList key={kind} orgId={org.id} kind={kind} />)}
    {org.canAdmin && <DicomPanel orgId={org.id} />}
    </>
  );
}
