import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { EXAM_GENDERS, type ExamListItem } from '../../../contract/exams';
import { PATIENT_SOURCES } from '../../../contract/constants';
import { useScope } from '@/lib/commands';
import { errorText } from '@/lib/errorText';
import { http, isHttpError } from '@/lib/http';
import { toasts } from '@/lib/toasts';
import { Alert } from '@/ui/Alert';
import { Dialog } from '@/ui/Dialog';
import { Spinner } from '@/ui/Spinner';
import { TextField } from '@/ui/TextField';
import { changesOf, formOf, missingFor, TEXT_FIELDS, type ExamForm } from './form';

interface Props {
  examId: number;
  onClose: () => void;
  /** Told the exam as saved, so the screen behind can show it. */
  onSaved?: (exam: ExamListItem) => void;
}

/**
 * Editing an exam's information (exam_update, POST exams/{id}): the exam is read fresh when the dialog opens, only the
 * changed fields are sent, with the version read; a change by someone else meanwhile (409 VersionConflict) offers to
 * reload. The patient source's required fields are checked here for comfort; the server is the judge.
 */
export function EditExamDialog({ examId, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const label = t as unknown as (key: string) => string;
  useScope('dialog');
  const [exam, setExam] = useState<ExamListItem | null>(null);
  const [form, setForm] = useState<ExamForm | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [conflict, setConflict] = useState(false);
  const [busy, setBusy] = useState(false);
  const [reload, setReload] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    http.get<ExamListItem>(`exams/${examId}`, { signal: controller.signal }).then((read) => {
      setExam(read);
      setForm(formOf(read));
      setConflict(false);
      setFailure(null);
    }, (error: unknown) => !controller.signal.aborted && setFailure(errorText(t, error)));
    return () => controller.abort();
  }, [examId, reload, t]);

  const missing = form ? missingFor(form) : [];
  const set = <K extends keyof ExamForm>(field: K, value: ExamForm[K]) => setForm((f) => (f ? { ...f, [field]: value } : f));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!exam || !form || busy || missing.length > 0) return;
    setBusy(true);
    setFailure(null);
    try {
      const saved = await http.post<ExamListItem>(`exams/${examId}`, changesOf(exam, form));
      toasts.show({ message: t('examEdit.saved'), kind: 'success', duration: 2500 });
      onSaved?.(saved);
      onClose();
    } catch (error) {
      if (isHttpError(error) && error.code === 'VersionConflict') setConflict(true);
      else setFailure(errorText(t, error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open title={t('examEdit.title')} onCancel={onClose} width={640}>
      {!form && !failure && <Spinner label={t('common.loading')} />}
      {failure && <Alert>{failure}</Alert>}
      {conflict && (
        <Alert>
          {t('examEdit.conflict')}{' '}
          <button type="button" className="btn" onClick={() => setReload((n) => n + 1)} data-testid="exam-edit-reload">{t('common.reload')}</button>
        </Alert>
      )}
      {form && (
        <form onSubmit={submit} data-testid="exam-edit-form" className="space-y-1">
          <div className="grid grid-cols-2 gap-x-4">
            {TEXT_FIELDS.map((field, index) => (
              <TextField
                key={field}
                name={field}
                label={label(`examEdit.fields.${field}`)}
                value={form[field]}
                autoFocus={index === 0}
                onChange={(event) => set(field, event.target.value)}
                error={missing.includes(field) ? t('examEdit.requiredForSource') : null}
                hint={field === 'patientDob' ? 'YYYY-MM-DD' : field === 'visitAge' ? t('examEdit.ageHint') : undefined}
              />
            ))}
            <label className="mb-5 block text-[13px] font-medium text-fg-muted">
              {t('examEdit.fields.patientGender')}
              <select name="patientGender" className="input mt-1" value={form.patientGender} onChange={(event) => set('patientGender', event.target.value as ExamForm['patientGender'])}>
                {EXAM_GENDERS.map((g) => <option key={g} value={g}>{label(`examEdit.gender.${g}`)}</option>)}
              </select>
            </label>
            <label className="mb-5 block text-[13px] font-medium text-fg-muted">
              {t('examEdit.fields.patientSource')}
              <select name="patientSource" className="input mt-1" value={form.patientSource} onChange={(event) => set('patientSource', event.target.value as ExamForm['patientSource'])}>
                <option value="">{t('examEdit.source.none')}</option>
                {PATIENT_SOURCES.map((s) => <option key={s} value={s}>{label(`examEdit.source.${s}`)}</option>)}
              </select>
            </label>
            <label className="flex items-center gap-2 text-[13px]">
              <input type="checkbox" name="urgentFlag" checked={form.urgentFlag} onChange={(event) => set('urgentFlag', event.target.checked)} />
              {t('examEdit.fields.urgentFlag')}
            </label>
          </div>
          <div className="flex justify-end gap-2 pt-3">
            <button type="button" className="btn" onClick={onClose}>{t('common.cancel')}</button>
            <button type="submit" className="btn btn-primary" disabled={busy || missing.length > 0 || conflict} data-testid="exam-edit-save">
              {busy ? t('common.saving') : t('common.save')}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
