import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { PatientRecord, RegistrySetup } from '../../../../contract/registry';
import { HUMAN_GENDERS, PET_GENDERS, REGISTRY_MAX_EXAMS } from '../../../../contract/registry';
import { AGE_UNITS, MODALITIES, PATIENT_SOURCES } from '../../../../contract/constants';
import { SOURCE_REQUIRED_FIELDS } from '../../../../contract/exams';
import type { DraftErrors, LineDraft, RegistrationDraft } from './draft';
import { PatientLookup, type LookupHandle } from './PatientLookup';

type PatientField = Exclude<keyof RegistrationDraft, 'lines' | 'registrationId' | 'version'>;

/**
 * The registration form, laid out in the order of the paper request: the patient (name first, with the look-up of
 * earlier records), the patient's source and its ids, the requesting department, then up to five exam lines.
 * Tab walks it; Enter saves (the list then holds the new row), Ctrl+Enter saves and starts the next patient, Esc
 * clears. Errors sit under their fields in a line kept for them, so nothing jumps.
 */
export function RegistrationForm({ draft, errors, setup, bucketId, busy, onChange, onSave, onClear, onAddLine, onRemoveLine, onRecord, nameRef, focusLine = null }: {
  draft: RegistrationDraft;
  errors: DraftErrors;
  setup: RegistrySetup;
  bucketId: number;
  busy: boolean;
  onChange: (draft: RegistrationDraft) => void;
  onSave: (next: boolean) => void;
  onClear: () => void;
  onAddLine: () => void;
  onRemoveLine: (key: number) => void;
  onRecord: (record: PatientRecord) => void;
  nameRef: Ref<HTMLInputElement>;
  /** The key of a line just added: it takes the focus when it appears. */
  focusLine?: number | null;
}) {
  const { t } = useTranslation();
  const lookup = useRef<LookupHandle>(null);
  const genders = setup.isPet ? PET_GENDERS : HUMAN_GENDERS;
  const set = (field: PatientField, value: string) => onChange({ ...draft, [field]: value });
  const setLine = (key: number, change: Partial<LineDraft>) =>
    onChange({ ...draft, lines: draft.lines.map((line) => (line.key === key ? { ...line, ...change } : line)) });
  const sourceFields: readonly string[] = SOURCE_REQUIRED_FIELDS[draft.patientSource];
  const editing = draft.registrationId !== null;

  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (lookup.current?.handleKey(event)) return;
    const target = event.target as HTMLElement;
    if (event.key === 'Escape') {
      event.preventDefault();
      onClear();
    } else if (event.key === 'Enter' && !event.altKey && !event.shiftKey && target.tagName !== 'BUTTON' && target.tagName !== 'TEXTAREA') {
      // Ctrl+Enter is the palette's command (save and next); a plain Enter saves from any field, selects included.
      if (event.ctrlKey || event.metaKey) return;
      event.preventDefault();
      onSave(false);
    }
  };

  return (
    <form
      className="flex min-h-0 flex-col gap-2 overflow-y-auto p-3"
      aria-label={t('registry.form.title')}
      data-testid="registry-form"
      data-toast-avoid
      noValidate
      onKeyDown={onKeyDown}
      onSubmit={(event) => {
        event.preventDefault();
        onSave(false);
      }}
    >
      <div className="flex items-baseline justify-between">
        <h2 className="text-sm font-semibold">{editing ? t('registry.form.editTitle') : t('registry.form.title')}</h2>
        {editing && <span className="text-xs text-fg-muted">{t('registry.form.editing', { name: draft.patientName })}</span>}
      </div>

      <fieldset className="grid grid-cols-2 gap-x-2" disabled={busy}>
        <legend className="sr-only">{t('registry.form.patient')}</legend>
        <Field label={t('registry.fields.patientName')} error={errors.patientName} required className="col-span-2">
          {(id, describedBy) => (
            <PatientLookup
              ref={lookup}
              id={id}
              describedBy={describedBy}
              inputRef={nameRef}
              bucketId={bucketId}
              dob={draft.patientDob || null}
              value={draft.patientName}
              invalid={Boolean(errors.patientName)}
              onChange={(value) => set('patientName', value)}
              onPick={onRecord}
            />
          )}
        </Field>
        <Field label={t('registry.fields.patientGender')} error={errors.patientGender} required>
          {(id, describedBy) => (
            <select id={id} aria-describedby={describedBy} className="input h-8 py-0" value={draft.patientGender} required
              aria-invalid={errors.patientGender ? true : undefined} onChange={(e) => set('patientGender', e.target.value)}>
              {!genders.includes(draft.patientGender as never) && <option value="" disabled>{t('registry.form.chooseGender')}</option>}
              {genders.map((g) => <option key={g} value={g}>{t(`registry.genders.${g}`)}</option>)}
            </select>
          )}
        </Field>
        <Field label={t('registry.fields.age')} error={errors.age}>
          {(id, describedBy) => (
            <div className="flex gap-1">
              <input id={id} aria-describedby={describedBy} className="input h-8 w-full tabular-nums" inputMode="numeric" value={draft.age}
                aria-invalid={errors.age ? true : undefined} onChange={(e) => set('age', e.target.value)} />
              <select aria-label={t('registry.fields.ageUnit')} className="input h-8 w-auto shrink-0 py-0" value={draft.ageUnit} onChange={(e) => set('ageUnit', e.target.value)}>
                {AGE_UNITS.map((u) => <option key={u} value={u}>{t(`registry.ageUnits.${u}`)}</option>)}
              </select>
            </div>
          )}
        </Field>
        <Text label={t('registry.fields.patientDob')} type="date" value={draft.patientDob} error={errors.patientDob} onChange={(v) => set('patientDob', v)} />
        <Text label={t('registry.fields.phone')} type="tel" value={draft.phone} error={errors.phone} onChange={(v) => set('phone', v)} />
        <Text label={t('registry.fields.patientId')} value={draft.patientId} hint={t('registry.form.patientIdHint')} onChange={(v) => set('patientId', v)} />
        <Field label={t('registry.fields.patientSource')} required>
          {(id, describedBy) => (
            <select id={id} aria-describedby={describedBy} className="input h-8 py-0" value={draft.patientSource} onChange={(e) => set('patientSource', e.target.value)}>
              {PATIENT_SOURCES.map((s) => <option key={s} value={s}>{t(`registry.sources.${s}`)}</option>)}
            </select>
          )}
        </Field>
        {sourceFields.map((field) => (
          <Text key={field} label={t(`registry.fields.${field as 'inpatientId'}`)} required value={draft[field as PatientField]} error={errors[field]}
            onChange={(v) => set(field as PatientField, v)} />
        ))}
        <Text label={t('registry.fields.applyDept')} value={draft.applyDept} onChange={(v) => set('applyDept', v)} />
        <Text label={t('registry.fields.clinicImpression')} value={draft.clinicImpression} className="col-span-2" onChange={(v) => set('clinicImpression', v)} />
      </fieldset>

      <fieldset className="flex flex-col gap-1.5" disabled={busy}>
        <legend className="mb-1 flex w-full items-center justify-between text-[13px] font-medium">
          <span>{t('registry.form.exams', { count: draft.lines.length, max: REGISTRY_MAX_EXAMS })}</span>
        </legend>
        {draft.lines.map((line, index) => (
          <ExamLine key={line.key} line={line} index={index} setup={setup} errors={errors} focus={line.key === focusLine} removable={draft.lines.length > 1 && line.examId === undefined}
            onChange={(change) => setLine(line.key, change)} onRemove={() => onRemoveLine(line.key)} />
        ))}
        <p className="min-h-5 text-xs text-danger" aria-live="polite">{errors.lines ? t(errors.lines as 'registry.errors.tooManyLines', { max: REGISTRY_MAX_EXAMS }) : ''}</p>
        <div>
          <button type="button" className="btn h-7 text-xs" onClick={onAddLine} disabled={draft.lines.length >= REGISTRY_MAX_EXAMS}
            title={`${t('registry.commands.addLine')} (Alt+A)`}>
            + {t('registry.form.addLine')}
          </button>
        </div>
      </fieldset>

      <div className="sticky bottom-0 mt-auto flex flex-wrap items-center gap-2 border-t border-line bg-surface pt-2">
        <button type="submit" className="btn btn-primary" disabled={busy} data-testid="registry-save">
          {editing ? t('registry.form.update') : t('registry.form.save')} <kbd className="key-hint">Enter</kbd>
        </button>
        {!editing && (
          <button type="button" className="btn" disabled={busy} onClick={() => onSave(true)}>
            {t('registry.form.saveNext')} <kbd className="key-hint">Ctrl+Enter</kbd>
          </button>
        )}
        <button type="button" className="btn btn-ghost ml-auto" onClick={onClear} disabled={busy}>
          {t('registry.form.clear')} <kbd className="key-hint">Esc</kbd>
        </button>
      </div>
    </form>
  );
}

function ExamLine({ line, index, setup, errors, focus, removable, onChange, onRemove }: {
  line: LineDraft;
  focus: boolean;
  index: number;
  setup: RegistrySetup;
  errors: DraftErrors;
  removable: boolean;
  onChange: (change: Partial<LineDraft>) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const errorId = useId();
  const stepRef = useRef<HTMLSelectElement>(null);
  useEffect(() => {
    if (focus) stepRef.current?.focus();
  }, [focus]);
  const step = setup.steps.find((s) => s.id === line.procedureStepId) ?? null;
  const lineErrors = ['procedureStepId', 'day', 'time'].map((f) => errors[`lines.${index}.${f}`]).filter(Boolean) as string[];
  return (
    <div className="rounded-md border border-line bg-sunken/40 p-1.5" data-testid="exam-line" role="group" aria-label={t('registry.form.line', { n: index + 1 })}>
      <div className="flex flex-wrap items-center gap-1">
        <span className="w-4 text-xs text-fg-subtle tabular-nums" aria-hidden="true">{index + 1}</span>
        <select ref={stepRef} aria-label={t('registry.fields.procedureStep')} className="input h-7 w-40 flex-1 py-0 text-[13px]" value={line.procedureStepId ?? ''}
          aria-invalid={errors[`lines.${index}.procedureStepId`] ? true : undefined} aria-describedby={errorId}
          onChange={(e) => {
            const id = e.target.value === '' ? null : Number(e.target.value);
            const chosen = setup.steps.find((s) => s.id === id);
            onChange({ procedureStepId: id, modality: chosen?.modality ?? line.modality, bodyPart: chosen?.bodyPart ?? line.bodyPart });
          }}>
          <option value="">{t('registry.form.noStep')}</option>
          {setup.steps.map((s) => <option key={s.id} value={s.id}>{s.name}</option>)}
        </select>
        <select aria-label={t('registry.fields.modality')} className="input h-7 w-20 py-0 text-[13px]" value={step ? step.modality : line.modality}
          disabled={step !== null} onChange={(e) => onChange({ modality: e.target.value })}>
          <option value="">—</option>
          {MODALITIES.map((m) => <option key={m} value={m}>{m}</option>)}
        </select>
        <input aria-label={t('registry.fields.bodyPart')} placeholder={t('registry.fields.bodyPart')} className="input h-7 w-24 text-[13px]" value={line.bodyPart}
          onChange={(e) => onChange({ bodyPart: e.target.value })} />
      </div>
      <div className="mt-1 flex flex-wrap items-center gap-1 pl-5">
        <input type="date" aria-label={t('registry.fields.scheduledDay')} className="input h-7 w-36 text-[13px] tabular-nums" value={line.day}
          aria-invalid={errors[`lines.${index}.day`] ? true : undefined} aria-describedby={errorId} onChange={(e) => onChange({ day: e.target.value })} />
        <input type="time" aria-label={t('registry.fields.scheduledTime')} className="input h-7 w-32 text-[13px] tabular-nums" value={line.time}
          aria-invalid={errors[`lines.${index}.time`] ? true : undefined} aria-describedby={errorId} onChange={(e) => onChange({ time: e.target.value })} />
        <label className="inline-flex items-center gap-1 text-xs">
          <input type="checkbox" checked={line.urgent} onChange={(e) => onChange({ urgent: e.target.checked })} />
          {t('registry.fields.urgent')}
        </label>
        {step?.reportDuringExam && <span className="text-[11px] text-fg-muted" title={t('registry.form.noImagesHint')}>{t('registry.form.noImages')}</span>}
        {removable && (
          <button type="button" className="icon-button ml-auto size-6 text-fg-muted" onClick={onRemove} aria-label={t('registry.form.removeLine', { n: index + 1 })}>
            <span aria-hidden="true">×</span>
          </button>
        )}
      </div>
      <p id={errorId} className="min-h-4 pl-5 text-[11px] leading-4 text-danger" aria-live="polite">
        {lineErrors.map((key) => t(key as 'registry.errors.required')).join(' · ')}
      </p>
    </div>
  );
}

function Field({ label, error, hint, required, className, children }: {
  label: string;
  error?: string;
  hint?: string;
  required?: boolean;
  className?: string;
  children: (id: string, describedBy: string) => ReactNode;
}) {
  const { t } = useTranslation();
  const id = useId();
  const noteId = `${id}-note`;
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-0.5 block text-xs font-medium text-fg-muted">
        {label}{required && <span className="text-danger" aria-hidden="true"> *</span>}
      </label>
      {children(id, noteId)}
      <p id={noteId} aria-live="polite" className={`min-h-4 text-[11px] leading-4 ${error ? 'text-danger' : 'text-fg-subtle'}`}>
        {error ? t(error as 'registry.errors.required') : hint ?? ''}
      </p>
    </div>
  );
}

function Text({ label, value, error, hint, required, type = 'text', className, onChange }: {
  label: string;
  value: string;
  error?: string;
  hint?: string;
  required?: boolean;
  type?: string;
  className?: string;
  onChange: (value: string) => void;
}) {
  return (
    <Field label={label} error={error} hint={hint} required={required} className={className}>
      {(id, describedBy) => (
        <input id={id} type={type} aria-describedby={describedBy} aria-invalid={error ? true : undefined} aria-required={required || undefined}
          className="input h-8" value={value} onChange={(e) => onChange(e.target.value)} />
      )}
    </Field>
  );
}
