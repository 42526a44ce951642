import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { REPORT_NOTE_MAX } from '../../../../contract/constants';
import {
  BODYPART_COUNT_MAX, BODYPART_COUNT_MIN, CRITICAL_VALUE_MAX, EXTENSION_KEY_MAX, EXTENSION_VALUE_MAX, noteLength,
  type ExtensionValue, type FieldProblem,
} from '../../../../machines/reportModel/fields';
import type { SideFields } from '../workspace/useReportWorkspace';

interface Props {
  side: SideFields;
  editable: boolean;
  problems: FieldProblem[];
  onChange: <K extends keyof SideFields>(key: K, value: SideFields[K]) => void;
  /** Shown to the report's creator only (core §6: the creator ticks whether an advisor may edit). */
  advisorOption: { value: boolean; onChange: (value: boolean) => void } | null;
}

const POSITIVE_OPTIONS: { value: boolean | null; key: 'positive' | 'negative' | 'unset' }[] = [
  { value: true, key: 'positive' },
  { value: false, key: 'negative' },
  { value: null, key: 'unset' },
];

/** The report's other fields (core §3): positive flag, body part count, critical value, note, extension fields. */
export function FieldsPanel({ side, editable, problems, onChange, advisorOption }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const noteCount = noteLength(side.note);
  const noteOver = noteCount > REPORT_NOTE_MAX;

  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-3">
      <h2 id={`${id}-title`} className="sr-only">{t('report.fields.title')}</h2>
      <fieldset className="flex flex-col gap-1" disabled={!editable}>
        <legend className="mb-1 text-[13px] font-medium text-fg-muted">{t('report.fields.positive')}</legend>
        <div role="radiogroup" aria-label={t('report.fields.positive')} className="flex gap-1">
          {POSITIVE_OPTIONS.map((option) => {
            const checked = side.positive === option.value;
            return (
              <label
                key={option.key}
                className={`flex h-7 flex-1 cursor-pointer items-center justify-center rounded-md border text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-[var(--focus)] ${
                  checked
                    ? option.key === 'positive' ? 'border-danger/50 bg-danger-soft font-medium text-danger' : 'border-accent/50 bg-accent-soft font-medium text-fg'
                    : 'border-line text-fg-muted hover:bg-sunken'
                } ${editable ? '' : 'cursor-default opacity-80'}`}
              >
                <input
                  type="radio"
                  className="sr-only"
                  name={`${id}-positive`}
                  checked={checked}
                  onChange={() => onChange('positive', option.value)}
                />
                {t(`report.fields.positiveValue.${option.key}`)}
              </label>
            );
          })}
        </div>
      </fieldset>

      <div className="grid grid-cols-[7rem_1fr] gap-x-3">
        <label htmlFor={`${id}-count`} className="mb-1 block text-[13px] font-medium text-fg-muted">{t('report.fields.bodypartCount')}</label>
        <label htmlFor={`${id}-critical`} className="mb-1 block text-[13px] font-medium text-fg-muted">{t('report.fields.criticalValue')}</label>
        <input
          id={`${id}-count`}
          type="number"
          inputMode="numeric"
          min={BODYPART_COUNT_MIN}
          max={BODYPART_COUNT_MAX}
          step={1}
          className="input tabular-nums"
          readOnly={!editable}
          aria-invalid={problems.includes('bodypartCount') || undefined}
          value={Number.isFinite(side.bodypartCount) ? side.bodypartCount : ''}
          onChange={(event) => onChange('bodypartCount', event.target.value === '' ? Number.NaN : Number(event.target.value))}
        />
        <input
          id={`${id}-critical`}
          className="input"
          readOnly={!editable}
          maxLength={CRITICAL_VALUE_MAX}
          aria-invalid={problems.includes('criticalValueTooLong') || undefined}
          value={side.criticalValue}
          onChange={(event) => onChange('criticalValue', event.target.value)}
        />
        <p className="col-span-2 min-h-[1.25rem] text-xs leading-5 text-danger" aria-live="polite">
          {problems.includes('bodypartCount') ? t('report.problems.bodypartCount') : ''}
        </p>
      </div>

      <div>
        <div className="mb-1 flex items-baseline justify-between">
          <label htmlFor={`${id}-note`} className="text-[13px] font-medium text-fg-muted">{t('report.fields.note')}</label>
          <span id={`${id}-note-count`} className={`text-xs tabular-nums ${noteOver ? 'font-medium text-danger' : 'text-fg-subtle'}`}>
            {t('report.fields.noteCount', { count: noteCount, max: REPORT_NOTE_MAX })}
          </span>
        </div>
        <textarea
          id={`${id}-note`}
          rows={3}
          className="input h-auto resize-none py-1.5"
          readOnly={!editable}
          aria-invalid={noteOver || undefined}
          aria-describedby={`${id}-note-count`}
          value={side.note}
          onChange={(event) => onChange('note', event.target.value)}
        />
      </div>

      <Extensions extensions={side.extensions} editable={editable} invalid={problems.includes('extensionKey') || problems.includes('extensionValueTooLong')}
        onChange={(next) => onChange('extensions', next)} />

      {advisorOption && (
        <label className="flex items-center gap-2 text-sm text-fg-muted">
          <input type="checkbox" checked={advisorOption.value} disabled={!editable} onChange={(event) => advisorOption.onChange(event.target.checked)} />
          {t('report.fields.allowAdvisorEdit')}
        </label>
      )}
    </section>
  );
}

function Extensions({ extensions, editable, invalid, onChange }: {
  extensions: Record<string, ExtensionValue>;
  editable: boolean;
  invalid: boolean;
  onChange: (next: Record<string, ExtensionValue>) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [newKey, setNewKey] = useState('');
  const entries = Object.entries(extensions);
  if (!editable && entries.length === 0) return null;

  const set = (key: string, value: ExtensionValue) => onChange({ ...extensions, [key]: value });
  const remove = (key: string) => {
    const next = { ...extensions };
    delete next[key];
    onChange(next);
  };
  const add = () => {
    const key = newKey.trim();
    if (!key || key.length > EXTENSION_KEY_MAX || Object.hasOwn(extensions, key)) return;
    onChange({ ...extensions, [key]: '' });
    setNewKey('');
  };

  return (
    <fieldset className="flex flex-col gap-1.5">
      <legend className="mb-1 text-[13px] font-medium text-fg-muted">{t('report.fields.extensions')}</legend>
      {entries.map(([key, value]) => (
        <div key={key} className="grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)_auto] items-center gap-2">
          <label htmlFor={`${id}-${key}`} className="truncate text-sm" title={key}>{key}</label>
          {typeof value === 'boolean' ? (
            <input id={`${id}-${key}`} type="checkbox" className="justify-self-start" checked={value} disabled={!editable} onChange={(e) => set(key, e.target.checked)} />
          ) : (
            <input
              id={`${id}-${key}`}
              className="input h-7"
              type={typeof value === 'number' ? 'number' : 'text'}
              readOnly={!editable}
              maxLength={EXTENSION_VALUE_MAX}
              aria-invalid={invalid || undefined}
              value={value === null ? '' : String(value)}
              onChange={(e) => set(key, typeof value === 'number' ? (e.target.value === '' ? null : Number(e.target.value)) : e.target.value)}
            />
          )}
          {editable ? (
            <button type="button" className="icon-button" aria-label={t('report.fields.removeExtension', { name: key })} onClick={() => remove(key)}>×</button>
          ) : <span />}
        </div>
      ))}
      {editable && (
        <div className="grid grid-cols-[minmax(0,1fr)_auto] gap-2">
          <input
            className="input h-7"
            aria-label={t('report.fields.newExtension')}
            placeholder={t('report.fields.newExtension')}
            maxLength={EXTENSION_KEY_MAX}
            value={newKey}
            onChange={(e) => setNewKey(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
                e.preventDefault();
                add();
              }
            }}
          />
          <button type="button" className="btn h-7 px-2.5" onClick={add} disabled={newKey.trim() === ''}>{t('report.fields.addExtension')}</button>
        </div>
      )}
    </fieldset>
  );
}
