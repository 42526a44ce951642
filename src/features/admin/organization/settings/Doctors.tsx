import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Department, Doctor } from '../../../../../contract/organizations';
import { useLoad } from '@/lib/useLoad';
import { Dialog } from '@/ui/Dialog';
import { Section } from '../../ui/AdminFrame';
import { LoadState } from '@/ui/LoadState';
import { DeleteConfirm, OrgRowActions, useRowActions } from '../../ui/rowActions';
import { organizationSettingsApi as api, type DoctorValues } from '../organizationApi';
import { ADD_ROW, ADD_TD, DialogButtons, DialogError, Field, HEAD_ROW, INPUT, ROW, SELECT, TABLE, TD, TH, useDialogWrite } from './parts';

/** The contract's default physician type and its range (contract/organizations.ts `doctorInput`). */
const DEFAULT_TYPE = 1;
const TYPE_MAX = 99;

interface Form { name: string; departmentId: number; physicianType: string }
const EMPTY: Form = { name: '', departmentId: 0, physicianType: String(DEFAULT_TYPE) };

const typeOf = (text: string): number | null => (/^\d{1,2}$/.test(text.trim()) && Number(text) <= TYPE_MAX ? Number(text) : null);
const valuesOf = (form: Form): DoctorValues | null => {
  const physicianType = typeOf(form.physicianType);
  return form.name.trim() && physicianType !== null ? { name: form.name.trim(), departmentId: form.departmentId, physicianType } : null;
};

/**
 * The organisation's doctors (areas §3): name, department (0 = none) and physician type (1 unless chosen). The
 * department list is read again whenever its menu takes the focus, so a department added above is offered at once.
 */
export function Doctors({ orgId }: { orgId: number }) {
  const { t } = useTranslation();
  const formId = useId();
  const list = useLoad(`admin:org:${orgId}:doctors`, (signal) => api.doctors(orgId, { signal }));
  const departments = useLoad(`admin:org:${orgId}:doctor-departments`, (signal) => api.departments(orgId, { signal }));
  const [form, setForm] = useState<Form>(EMPTY);
  const rows = useRowActions<Doctor>({ reload: list.reload });
  const { busy, run } = rows;
  const values = valuesOf(form);

  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (values && await run(() => api.createDoctor(orgId, values), t('admin.orgParts.doctors.added', { name: values.name }))) {
      setForm(EMPTY);
      list.reload();
    }
  };

  return (
    <Section title={t('admin.orgParts.doctors.title')} hint={t('admin.orgParts.doctors.hint')} testId="org-doctors">
      {!list.data ? <LoadState error={list.error} onRetry={list.reload} /> : (
        <>
          {/* The add row is the table's last row, its fields under their columns; the form it submits sits outside the table. */}
          <form id={formId} onSubmit={add} data-testid="doctor-add" />
          <table className={TABLE} data-testid="doctor-table">
            <thead>
              <tr className={HEAD_ROW}>
                <th className={TH}>{t('admin.orgParts.doctors.name')}</th>
                <th className={`${TH} w-52`}>{t('admin.orgParts.doctors.department')}</th>
                <th className={`${TH} w-32 text-right`}>{t('admin.orgParts.doctors.physicianType')}</th>
                <th className={`${TH} w-36`}><span className="sr-only">{t('admin.orgParts.actions')}</span></th>
              </tr>
            </thead>
            <tbody>
              {list.data.length === 0 && <tr className={ROW}><td colSpan={4} className={`${TD} text-fg-muted`}>{t('admin.orgParts.empty')}</td></tr>}
              {list.data.map((d) => (
                <tr key={d.id} className={ROW} data-doctor-id={d.id}>
                  <td className={TD}>{d.name}</td>
                  <td className={`${TD} ${d.departmentName === null ? 'text-fg-muted' : ''}`}>{d.departmentName ?? t('admin.orgParts.doctors.none')}</td>
                  <td className={`${TD} text-right tabular-nums`}>{d.physicianType}</td>
                  <td className={`${TD} py-1`}><OrgRowActions name={d.name} disabled={busy} onEdit={() => rows.setEditing(d)} onDelete={() => rows.setDeleting(d)} /></td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr className={ADD_ROW}>
                <td className={ADD_TD}><NameInput form={form} onChange={setForm} formId={formId} /></td>
                <td className={ADD_TD}><DepartmentSelect form={form} onChange={setForm} formId={formId} departments={departments.data ?? []} onFocus={departments.reload} /></td>
                <td className={ADD_TD}><TypeInput form={form} onChange={setForm} formId={formId} /></td>
                <td className={`${ADD_TD} pr-3 text-right`}>
                  <button type="submit" form={formId} className="btn btn-primary h-7 px-3 text-xs" disabled={busy || values === null}>{t('admin.orgParts.add')}</button>
                </td>
              </tr>
            </tfoot>
          </table>
        </>
      )}
      <EditDoctor orgId={orgId} doctor={rows.editing} departments={departments.data ?? []} onDepartmentsFocus={departments.reload} onClose={rows.closeEdit} />
      <DeleteConfirm rows={rows} title={t('admin.orgParts.doctors.deleteTitle')} confirmLabel={t('admin.orgParts.delete')}
        body={t('admin.orgParts.doctors.deleteBody', { name: rows.deleting?.name ?? '' })}
        onConfirm={() => rows.confirmDelete((d) => api.deleteDoctor(orgId, d.id), (d) => t('admin.orgParts.doctors.deleted', { name: d.name }))} />
    </Section>
  );
}

interface InputProps { form: Form; onChange: (form: Form) => void; id?: string; formId?: string }

/** Each control is named by its label in the dialog (`id`) and by the column's name in the table's add row. */
function NameInput({ form, onChange, id, formId }: InputProps) {
  const { t } = useTranslation();
  return (
    <input id={id} form={formId} className={INPUT} value={form.name} maxLength={64} autoComplete="off"
      aria-label={id ? undefined : t('admin.orgParts.doctors.name')} placeholder={id ? undefined : t('admin.orgParts.doctors.newName')}
      onChange={(e) => onChange({ ...form, name: e.target.value })} />
  );
}

/** "None" first, then the organisation's departments. */
function DepartmentSelect({ form, onChange, id, formId, departments, onFocus }: InputProps & { departments: Department[]; onFocus: () => void }) {
  const { t } = useTranslation();
  return (
    <select id={id} form={formId} className={`${SELECT} w-full`} value={form.departmentId} onFocus={onFocus}
      aria-label={id ? undefined : t('admin.orgParts.doctors.department')} onChange={(e) => onChange({ ...form, departmentId: Number(e.target.value) })}>
      <option value={0}>{t('admin.orgParts.doctors.none')}</option>
      {departments.map((d) => <option key={d.id} value={d.id}>{d.name}</option>)}
    </select>
  );
}

function TypeInput({ form, onChange, id, formId }: InputProps) {
  const { t } = useTranslation();
  const type = form.physicianType.trim();
  return (
    <input id={id} form={formId} className={`${INPUT} text-right tabular-nums`} type="number" min={0} max={TYPE_MAX} step={1} value={form.physicianType}
      aria-label={id ? undefined : t('admin.orgParts.doctors.physicianType')} aria-invalid={type !== '' && typeOf(type) === null}
      onChange={(e) => onChange({ ...form, physicianType: e.target.value })} />
  );
}

/** The edit dialog of one doctor; a refusal stays in the dialog with the fields as typed. */
function EditDoctor({ orgId, doctor, departments, onDepartmentsFocus, onClose }: {
  orgId: number; doctor: Doctor | null; departments: Department[]; onDepartmentsFocus: () => void; onClose: (saved: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={doctor !== null} title={t('admin.orgParts.doctors.editTitle')} onCancel={() => onClose(false)} width={400}>
      {doctor && <EditDoctorForm key={doctor.id} orgId={orgId} doctor={doctor} departments={departments} onDepartmentsFocus={onDepartmentsFocus} onClose={onClose} />}
    </Dialog>
  );
}

function EditDoctorForm({ orgId, doctor, departments, onDepartmentsFocus, onClose }: {
  orgId: number; doctor: Doctor; departments: Department[]; onDepartmentsFocus: () => void; onClose: (saved: boolean) => void;
}) {
  const { t } = useTranslation();
  const [form, setForm] = useState<Form>({ name: doctor.name, departmentId: doctor.departmentId, physicianType: String(doctor.physicianType) });
  const { busy, error, run } = useDialogWrite();
  const values = valuesOf(form);
  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (values && await run(() => api.updateDoctor(orgId, doctor.id, values), t('admin.orgParts.doctors.saved', { name: values.name }))) onClose(true);
  };
  return (
    <form onSubmit={save} data-testid="doctor-edit">
      <Field label={t('admin.orgParts.doctors.name')} className="mb-3">{(id) => <NameInput id={id} form={form} onChange={setForm} />}</Field>
      <div className="flex gap-2">
        <Field label={t('admin.orgParts.doctors.department')} className="min-w-0 flex-1">
          {(id) => <DepartmentSelect id={id} form={form} onChange={setForm} departments={departments} onFocus={onDepartmentsFocus} />}
        </Field>
        <Field label={t('admin.orgParts.doctors.physicianType')} className="w-28">{(id) => <TypeInput id={id} form={form} onChange={setForm} />}</Field>
      </div>
      <DialogError error={error} />
      <DialogButtons busy={busy} submitLabel={t('common.save')} disabled={values === null} onCancel={() => onClose(false)} />
    </form>
  );
}
