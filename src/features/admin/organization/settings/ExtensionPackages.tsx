import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PACKAGE_TYPES, type ExtensionPackage, type PackageInput, type PackageType } from '../../../../../contract/organizations';
import { useLoad } from '@/lib/useLoad';
import { Dialog } from '@/ui/Dialog';
import { Section } from '../../ui/AdminFrame';
import { LoadState } from '@/ui/LoadState';
import { DeleteConfirm, OrgRowActions, useRowActions } from '../../ui/rowActions';
import { organizationSettingsApi as api } from '../organizationApi';
import { DialogButtons, DialogError, Field, HEAD_ROW, INPUT, ROW, SELECT, TABLE, TD, TH, useDialogWrite } from './parts';

/** contract/organizations.ts `packageInput`: 1 to 100 fields. */
const FIELDS_MAX = 100;

interface FieldRow { rowId: number; name: string; unit: string }
interface Form { name: string; type: PackageType; fields: FieldRow[] }
/** Who is being edited: a new package, or one of the list. */
type Editing = { kind: 'new' } | { kind: 'edit'; pkg: ExtensionPackage };

let nextRowId = 1;
const row = (name = '', unit = ''): FieldRow => ({ rowId: nextRowId++, name, unit });

/** The body to send, or null while the form is not complete: a name and at least one named field (blank rows are left out). */
function inputOf(form: Form): PackageInput | null {
  const named = form.fields.filter((f) => f.name.trim() !== '' || f.unit.trim() !== '');
  if (!form.name.trim() || named.length === 0 || named.some((f) => f.name.trim() === '')) return null;
  return { name: form.name.trim(), type: form.type, fields: named.map((f) => ({ name: f.name.trim(), unit: f.unit.trim() === '' ? null : f.unit.trim() })) };
}

/**
 * Report extension packages (areas §3, §5): named sets of fields with units that a report or an exam fills in. A second
 * package of the same name (in any case) is refused by the server (DuplicatePackageName); the dialog says so and keeps
 * what was typed.
 */
export function ExtensionPackages({ orgId }: { orgId: number }) {
  const { t } = useTranslation();
  const list = useLoad(`admin:org:${orgId}:extension-packages`, (signal) => api.packages(orgId, { signal }));
  const rows = useRowActions<ExtensionPackage, Editing>({ reload: list.reload });
  const { editing, setEditing, busy, closeEdit: close } = rows;

  return (
    <Section title={t('admin.orgParts.packages.title')} hint={t('admin.orgParts.packages.hint')} testId="org-packages"
      actions={<button type="button" className="btn btn-primary h-7 px-3 text-xs" onClick={() => setEditing({ kind: 'new' })}>{t('admin.orgParts.packages.new')}</button>}>
      {!list.data ? <LoadState error={list.error} onRetry={list.reload} /> : list.data.length === 0 ? (
        <p className="text-[13px] text-fg-muted">{t('admin.orgParts.empty')}</p>
      ) : (
        <table className={TABLE} data-testid="package-table">
          <thead>
            <tr className={HEAD_ROW}>
              <th className={`${TH} w-56`}>{t('admin.orgParts.packages.name')}</th>
              <th className={`${TH} w-24`}>{t('admin.orgParts.packages.type')}</th>
              <th className={TH}>{t('admin.orgParts.packages.fields')}</th>
              <th className={`${TH} w-36`}><span className="sr-only">{t('admin.orgParts.actions')}</span></th>
            </tr>
          </thead>
          <tbody>
            {list.data.map((p) => (
              <tr key={p.id} className={ROW} data-package-id={p.id}>
                <td className={TD}>{p.name}</td>
                <td className={`${TD} text-fg-muted`}>{t(`admin.orgParts.packages.types.${p.type}`)}</td>
                <td className={`${TD} text-fg-muted`}>
                  {p.fields.map((f) => (f.unit ? t('admin.orgParts.packages.fieldWithUnit', { name: f.name, unit: f.unit }) : f.name)).join(t('admin.orgParts.packages.separator'))}
                </td>
                <td className={`${TD} py-1`}><OrgRowActions name={p.name} disabled={busy} onEdit={() => setEditing({ kind: 'edit', pkg: p })} onDelete={() => rows.setDeleting(p)} /></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Dialog open={editing !== null} title={t(editing?.kind === 'edit' ? 'admin.orgParts.packages.editTitle' : 'admin.orgParts.packages.newTitle')}
        onCancel={() => close(false)} width={520}>
        {editing && <PackageForm key={editing.kind === 'edit' ? editing.pkg.id : 'new'} orgId={orgId} editing={editing} onClose={close} />}
      </Dialog>
      <DeleteConfirm rows={rows} title={t('admin.orgParts.packages.deleteTitle')} confirmLabel={t('admin.orgParts.delete')}
        body={t('admin.orgParts.packages.deleteBody', { name: rows.deleting?.name ?? '' })}
        onConfirm={() => rows.confirmDelete((p) => api.deletePackage(orgId, p.id), (p) => t('admin.orgParts.packages.deleted', { name: p.name }))} />
    </Section>
  );
}

/** Name, type and the field rows (name and unit each); "Add field" puts the focus in the new row. */
function PackageForm({ orgId, editing, onClose }: { orgId: number; editing: Editing; onClose: (saved: boolean) => void }) {
  const { t } = useTranslation();
  const [form, setForm] = useState<Form>(() => editing.kind === 'edit'
    ? { name: editing.pkg.name, type: editing.pkg.type, fields: editing.pkg.fields.map((f) => row(f.name, f.unit ?? '')) }
    : { name: '', type: 'report', fields: [row()] });
  // A new object each time, so asking for the same row twice still moves the focus.
  const [focusRow, setFocusRow] = useState<{ rowId: number } | null>(null);
  const list = useRef<HTMLDivElement>(null);
  const { busy, error, run } = useDialogWrite();
  const input = inputOf(form);

  useEffect(() => {
    if (focusRow) list.current?.querySelector<HTMLInputElement>(`[data-field-row="${focusRow.rowId}"]`)?.focus();
  }, [focusRow]);

  const setField = (rowId: number, patch: Partial<FieldRow>) => setForm((f) => ({ ...f, fields: f.fields.map((x) => (x.rowId === rowId ? { ...x, ...patch } : x)) }));
  const addField = () => {
    const added = row();
    setForm((f) => ({ ...f, fields: [...f.fields, added] }));
    setFocusRow({ rowId: added.rowId });
  };
  const removeField = (index: number) => {
    const rest = form.fields.filter((_, i) => i !== index);
    setForm((f) => ({ ...f, fields: rest }));
    // The focus goes to the row that took its place (or the one above), never back to the page behind the dialog.
    const next = rest[Math.min(index, rest.length - 1)];
    setFocusRow(next ? { rowId: next.rowId } : null);
  };
  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!input) return;
    const call = editing.kind === 'edit' ? () => api.updatePackage(orgId, editing.pkg.id, input) : () => api.createPackage(orgId, input);
    if (await run(call, t(editing.kind === 'edit' ? 'admin.orgParts.packages.saved' : 'admin.orgParts.packages.added', { name: input.name }))) onClose(true);
  };

  return (
    <form onSubmit={save} data-testid="package-form">
      <div className="mb-3 flex gap-2">
        <Field label={t('admin.orgParts.packages.name')} className="min-w-0 flex-1">
          {(id) => <input id={id} className={INPUT} value={form.name} maxLength={64} autoComplete="off" onChange={(e) => setForm((f) => ({ ...f, name: e.target.value }))} />}
        </Field>
        <Field label={t('admin.orgParts.packages.type')} className="w-32">
          {(id) => (
            <select id={id} className={SELECT} value={form.type} onChange={(e) => setForm((f) => ({ ...f, type: e.target.value as PackageType }))}>
              {PACKAGE_TYPES.map((type) => <option key={type} value={type}>{t(`admin.orgParts.packages.types.${type}`)}</option>)}
            </select>
          )}
        </Field>
      </div>
      <fieldset className="rounded-md border border-line px-3 pb-2 pt-1">
        <legend className="px-1 text-xs text-fg-muted">{t('admin.orgParts.packages.fields')}</legend>
        <div className="mb-1 grid grid-cols-[1fr_7rem_1.75rem] gap-2 text-xs text-fg-muted" aria-hidden="true">
          <span>{t('admin.orgParts.packages.fieldName')}</span><span>{t('admin.orgParts.packages.unit')}</span><span />
        </div>
        <div ref={list} className="flex max-h-56 flex-col gap-1.5 overflow-auto" data-testid="package-fields">
          {form.fields.map((f, i) => (
            <div key={f.rowId} className="grid grid-cols-[1fr_7rem_1.75rem] items-center gap-2">
              <input className={INPUT} data-field-row={f.rowId} value={f.name} maxLength={64} autoComplete="off"
                aria-label={t('admin.orgParts.packages.fieldNameOf', { n: i + 1 })} aria-invalid={f.name.trim() === '' && f.unit.trim() !== ''}
                onChange={(e) => setField(f.rowId, { name: e.target.value })} />
              <input className={INPUT} value={f.unit} maxLength={32} autoComplete="off" aria-label={t('admin.orgParts.packages.unitOf', { n: i + 1 })}
                onChange={(e) => setField(f.rowId, { unit: e.target.value })} />
              <button type="button" className="icon-button h-7 w-7 text-sm" aria-label={t('admin.orgParts.packages.removeField', { n: i + 1 })}
                disabled={form.fields.length === 1} onClick={() => removeField(i)}>×</button>
            </div>
          ))}
        </div>
        <button type="button" className="btn btn-ghost mt-1.5 h-7 px-2 text-xs text-accent" disabled={form.fields.length >= FIELDS_MAX} onClick={addField}>
          {t('admin.orgParts.packages.addField')}
        </button>
      </fieldset>
      <DialogError error={error} />
      <DialogButtons busy={busy} disabled={input === null} onCancel={() => onClose(false)}
        submitLabel={editing.kind === 'edit' ? t('common.save') : t('admin.orgParts.packages.create')} />
    </form>
  );
}
