import { useTranslation } from 'react-i18next';
import { GENDERS } from '../../../../contract/constants';
import type { UploadableBucket } from '../../../../contract/uploads';
import { TextField } from '@/ui/TextField';
import type { ExamForm, ExamFormField, FormProblems } from '../examForm';

interface InfoStepProps {
  forms: ExamForm[];
  problems: Record<string, FormProblems>;
  fileCounts: Record<string, number>;
  onChange: (studyUid: string, field: ExamFormField, value: string) => void;
  /** Signed-in uploads into one of the account's organisations: which one. */
  buckets: UploadableBucket[] | null;
  bucketId: number | null;
  onBucket: (id: number) => void;
  destination: string | null;
  onBack: () => void;
  onStart: () => void;
}

const TEXT_FIELDS: readonly { field: ExamFormField; type?: string; max: number; wide?: boolean }[] = [
  { field: 'patientName', max: 128 },
  { field: 'patientId', max: 64 },
  { field: 'patientDob', type: 'date', max: 10 },
  { field: 'visitAge', max: 4 },
  { field: 'modality', max: 8 },
  { field: 'bodyPart', max: 64 },
  { field: 'accessionNumber', max: 64 },
  { field: 'examTime', type: 'datetime-local', max: 19 },
  { field: 'studyDescription', max: 256, wide: true },
];

/** Step 2: the exam info of each study, pre-filled from its files and editable before anything is sent. */
export function InfoStep({ forms, problems, fileCounts, onChange, buckets, bucketId, onBucket, destination, onBack, onStart }: InfoStepProps) {
  const { t } = useTranslation();
  const problemText = (studyUid: string, field: ExamFormField) => {
    const problem = problems[studyUid]?.[field];
    if (!problem) return null;
    return problem === 'required' ? t('validation.required', { field: t(`upload.fields.${field}`) }) : t('upload.info.invalid', { field: t(`upload.fields.${field}`) });
  };
  return (
    <form
      noValidate
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        onStart();
      }}
    >
      {buckets ? (
        <label className="flex items-center gap-3 text-sm">
          <span className="text-fg-muted">{t('upload.info.organisation')}</span>
          <select className="input w-auto min-w-64" value={bucketId ?? ''} onChange={(event) => onBucket(Number(event.target.value))}>
            {buckets.map((b) => <option key={b.id} value={b.id}>{b.name}</option>)}
          </select>
        </label>
      ) : destination ? (
        <p className="text-sm text-fg-muted">{t('upload.info.destination', { name: destination })}</p>
      ) : null}
      {forms.map((form, index) => (
        <fieldset key={form.studyInstanceUid} data-testid="upload-exam-form" className="rounded-lg border border-line bg-surface px-4 pb-2 pt-3">
          <legend className="px-1 text-sm font-semibold">
            {forms.length > 1 ? t('upload.info.studyN', { index: index + 1, count: forms.length }) : t('upload.info.study')}
            <span className="ml-2 text-xs font-normal text-fg-subtle">{t('upload.choose.seriesFiles', { count: fileCounts[form.studyInstanceUid] ?? 0 })}</span>
          </legend>
          <div className="grid grid-cols-1 gap-x-4 sm:grid-cols-2 lg:grid-cols-4">
            {TEXT_FIELDS.map(({ field, type, max, wide }) => (
              <TextField key={field} label={t(`upload.labels.${field}`)} name={field} type={type ?? 'text'} maxLength={max}
                step={type === 'datetime-local' ? 1 : undefined}
                value={form[field]} onChange={(event) => onChange(form.studyInstanceUid, field, event.target.value)}
                error={problemText(form.studyInstanceUid, field)} hint={field === 'visitAge' ? t('upload.info.ageHint') : undefined}
                className={wide ? 'sm:col-span-2 lg:col-span-3' : undefined} />
            ))}
            <div>
              <label htmlFor={`gender-${index}`} className="mb-1 block text-[13px] font-medium text-fg-muted">{t('upload.labels.patientGender')}</label>
              <select id={`gender-${index}`} name="patientGender" className="input" value={form.patientGender} onChange={(event) => onChange(form.studyInstanceUid, 'patientGender', event.target.value)}>
                {GENDERS.map((g) => <option key={g} value={g}>{t(`upload.gender.${g}`)}</option>)}
              </select>
            </div>
          </div>
          <p className="mb-1 truncate text-xs text-fg-subtle" title={form.studyInstanceUid}>{t('upload.labels.studyInstanceUid')}: {form.studyInstanceUid}</p>
        </fieldset>
      ))}
      <div className="flex justify-between">
        <button type="button" className="btn" onClick={onBack}>{t('upload.back')}</button>
        <button type="submit" className="btn btn-primary" disabled={buckets !== null && bucketId === null}>{t('upload.info.start')}</button>
      </div>
    </form>
  );
}
