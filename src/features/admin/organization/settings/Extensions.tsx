import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { BucketExtension } from '../../../../../contract/organizations';
import { useLoad } from '@/lib/useLoad';
import { Dialog } from '@/ui/Dialog';
import { Section } from '../../ui/AdminFrame';
import { LoadState } from '@/ui/LoadState';
import { DeleteConfirm, OrgRowActions, useRowActions } from '../../ui/rowActions';
import { organizationSettingsApi as api, type ExtensionValues } from '../organizationApi';
import { ADD_ROW, ADD_TD, DialogButtons, DialogError, Field, HEAD_ROW, INPUT, ROW, TABLE, TD, TH, useDialogWrite } from './parts';

/** The key rule of contract/organizations.ts `extensionInput` (alpha_dash, areas §5). */
const KEY = /^[A-Za-z0-9_-]{1,64}$/;
const EMPTY: ExtensionValues = { key: '', label: '' };

const valuesOf = (form: ExtensionValues): ExtensionValues | null =>
  KEY.test(form.key.trim()) && form.label.trim() ? { key: form.key.trim(), label: form.label.trim() } : null;

/** The organisation's extensions (areas §3): extra exam fields, each a key (unique, alpha_dash) with its label. */
export function Extensions({ orgId }: { orgId: number }) {
  const { t } = useTranslation();
  const formId = useId();
  const list = useLoad(`admin:org:${orgId}:extensions`, (signal) => api.extensions(orgId, { signal }));
  const [form, setForm] = useState(EMPTY);
  const rows = useRowActions<BucketExtension>({ reload: list.reload });
  const { busy, run } = rows;
  const values = valuesOf(form);

  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (values && await run(() => api.createExtension(orgId, values), t('admin.orgParts.extensions.added', { name: values.key }))) {
      setForm(EMPTY);
      list.reload();
    }
  };

  return (
    <Section title={t('admin.orgParts.extensions.title')} hint={t('admin.orgParts.extensions.hint')} testId="org-extensions">
      {!list.data ? <LoadState error={list.error} onRetry={list.reload} /> : (
        <>
          {/* As the doctors: the add row is the table's last row, the form it submits sits outside the table. */}
          <form id={formId} onSubmit={add} data-testid="extension-add" />
          <table className={TABLE} data-testid="extension-table">
            <thead>
              <tr className={HEAD_ROW}>
                <th className={`${TH} w-56`}>{t('admin.orgParts.extensions.key')}</th>
                <th className={TH}>{t('admin.orgParts.extensions.label')}</th>
                <th className={`${TH} w-36`}><span className="sr-only">{t('admin.orgParts.actions')}</span></th>
              </tr>
            </thead>
            <tbody>
              {list.data.length === 0 && <tr className={ROW}><td colSpan={3} className={`${TD} text-fg-muted`}>{t('admin.orgParts.empty')}</td></tr>}
              {list.data.map((x) => (
                <tr key={x.id} className={ROW} data-extension-id={x.id}>
                  <td className={`${TD} font-mono text-xs`}>{x.key}</td>
                  <td className={TD}>{x.label}</td>
                  <td className={`${TD} py-1`}><OrgRowActions name={x.key} disabled={busy} onEdit={() => rows.setEditing(x)} onDelete={() => rows.setDeleting(x)} /></td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr className={ADD_ROW}>
                <td className={ADD_TD}><KeyInput form={form} onChange={setForm} formId={formId} /></td>
                <td className={ADD_TD}><LabelInput form={form} onChange={setForm} formId={formId} /></td>
                <td className={`${ADD_TD} pr-3 text-right`}>
                  <button type="submit" form={formId} className="btn btn-primary h-7 px-3 text-xs" disabled={busy || values === null}>{t('admin.orgParts.add')}</button>
                </td>
              </tr>
              {keyBad(form.key) && <tr><td colSpan={3} className="px-3 pb-1.5 text-xs text-danger" role="alert">{t('admin.orgParts.extensions.keyRule')}</td></tr>}
            </tfoot>
          </table>
        </>
      )}
      <Dialog open={rows.editing !== null} title={t('admin.orgParts.extensions.editTitle')} onCancel={() => rows.setEditing(null)} width={400}>
        {rows.editing && <EditExtension key={rows.editing.id} orgId={orgId} extension={rows.editing} onClose={rows.closeEdit} />}
      </Dialog>
      <DeleteConfirm rows={rows} title={t('admin.orgParts.extensions.deleteTitle')} confirmLabel={t('admin.orgParts.delete')}
        body={t('admin.orgParts.extensions.deleteBody', { name: rows.deleting?.key ?? '' })}
        onConfirm={() => rows.confirmDelete((x) => api.deleteExtension(orgId, x.id), (x) => t('admin.orgParts.extensions.deleted', { name: x.key }))} />
    </Section>
  );
}

const keyBad = (key: string) => key.trim() !== '' && !KEY.test(key.trim());

interface InputProps { form: ExtensionValues; onChange: (form: ExtensionValues) => void; id?: string; formId?: string }

/** Named by its label in the dialog (`id`), by the column's name in the add row. */
function KeyInput({ form, onChange, id, formId }: InputProps) {
  const { t } = useTranslation();
  return (
    <input id={id} form={formId} className={`${INPUT} font-mono`} value={form.key} maxLength={64} autoComplete="off" spellCheck={false}
      aria-label={id ? undefined : t('admin.orgParts.extensions.key')} placeholder={id ? undefined : t('admin.orgParts.extensions.newKey')}
      aria-invalid={keyBad(form.key)} title={t('admin.orgParts.extensions.keyRule')}
      onChange={(e) => onChange({ ...form, key: e.target.value })} />
  );
}

function LabelInput({ form, onChange, id, formId }: InputProps) {
  const { t } = useTranslation();
  return (
    <input id={id} form={formId} className={INPUT} value={form.label} maxLength={128} autoComplete="off"
      aria-label={id ? undefined : t('admin.orgParts.extensions.label')} onChange={(e) => onChange({ ...form, label: e.target.value })} />
  );
}

function EditExtension({ orgId, extension, onClose }: { orgId: number; extension: BucketExtension; onClose: (saved: boolean) => void }) {
  const { t } = useTranslation();
  const [form, setForm] = useState<ExtensionValues>({ key: extension.key, label: extension.label });
  const { busy, error, run } = useDialogWrite();
  const values = valuesOf(form);
  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (values && await run(() => api.updateExtension(orgId, extension.id, values), t('admin.orgParts.extensions.saved', { name: values.key }))) onClose(true);
  };
  return (
    <form onSubmit={save} data-testid="extension-edit">
      <Field label={t('admin.orgParts.extensions.key')} className="mb-3">{(id) => <KeyInput id={id} form={form} onChange={setForm} />}</Field>
      <Field label={t('admin.orgParts.extensions.label')}>{(id) => <LabelInput id={id} form={form} onChange={setForm} />}</Field>
      {keyBad(form.key) && <p className="mt-1 text-xs text-danger" role="alert">{t('admin.orgParts.extensions.keyRule')}</p>}
      <DialogError error={error} />
      <DialogButtons busy={busy} submitLabel={t('common.save')} disabled={values === null} onCancel={() => onClose(false)} />
    </form>
  );
}
