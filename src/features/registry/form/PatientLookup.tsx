import { useEffect, useId, useImperativeHandle, useState, type KeyboardEvent, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { PatientRecord } from '../../../../contract/registry';
import { formatDate } from '@/lib/format';
import { registryApi } from '../api';
import { MAIN_CONTROL } from '@/lib/mainFocus';

export interface LookupHandle {
  /** Takes the key when the suggestions are open (arrows, Enter on one, Esc): true when it did. */
  handleKey(event: KeyboardEvent): boolean;
}

const DEBOUNCE_MS = 200;

/**
 * The name field, which also finds earlier records of the person as the registrar types a name, a patient id or a
 * phone number (the group's matchDob rule applies once a date of birth is in the form). ↓ walks the records, Enter
 * fills the form from the one in hand; typing on leaves them.
 */
export function PatientLookup({ ref, id, describedBy, inputRef, bucketId, dob, value, invalid, onChange, onPick }: {
  ref: Ref<LookupHandle>;
  id: string;
  describedBy: string;
  inputRef: Ref<HTMLInputElement>;
  bucketId: number;
  dob: string | null;
  value: string;
  invalid: boolean;
  onChange: (value: string) => void;
  onPick: (record: PatientRecord) => void;
}) {
  const { t } = useTranslation();
  const listId = useId();
  const [query, setQuery] = useState<string | null>(null);
  const [records, setRecords] = useState<PatientRecord[]>([]);
  const [active, setActive] = useState(-1);
  const asking = query !== null && query.trim() !== '';
  // A cleared field shows nothing, whatever the last answer held.
  const shown = asking ? records : [];
  const open = shown.length > 0;

  useEffect(() => {
    if (query === null || query.trim() === '') return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      registryApi.lookup(bucketId, query.trim(), dob, { signal: controller.signal }).then(
        (found) => {
          setRecords(found);
          setActive(-1);
        },
        // A look-up is a help, not a step: when it fails the registrar types the patient in.
        () => setRecords([]),
      );
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query, bucketId, dob]);

  const close = () => {
    setQuery(null);
    setRecords([]);
    setActive(-1);
  };
  const pick = (record: PatientRecord) => {
    close();
    onPick(record);
  };

  useImperativeHandle(ref, () => ({
    handleKey(event) {
      if (!open) return false;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        // -1 is the field itself: the walk goes field, records..., field.
        const n = shown.length + 1;
        setActive((i) => ((i + 1 + step + n) % n) - 1);
        return true;
      }
      if (event.key === 'Enter' && active >= 0 && shown[active]) {
        event.preventDefault();
        pick(shown[active]!);
        return true;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        close();
        return true;
      }
      return false;
    },
  }));

  return (
    <div className="relative">
      <input
        id={id}
        ref={inputRef}
        {...MAIN_CONTROL}
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && active >= 0 && active < shown.length ? `${listId}-${active}` : undefined}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        aria-required
        autoComplete="off"
        className="input h-8"
        value={value}
        placeholder={t('registry.form.lookupPlaceholder')}
        onChange={(e) => {
          onChange(e.target.value);
          setQuery(e.target.value);
        }}
        onBlur={() => setTimeout(close, 150)}
      />
      {open && (
        <ul id={listId} role="listbox" aria-label={t('registry.form.lookupTitle')} data-testid="patient-lookup"
          className="absolute top-full right-0 left-0 z-30 mt-0.5 max-h-64 overflow-auto rounded-md border border-line bg-raised py-1 text-[13px] shadow-lg">
          <li role="presentation" className="px-2 pb-1 text-[11px] text-fg-muted">{t('registry.form.lookupTitle')}</li>
          {shown.map((r, i) => (
            <li key={`${r.patientId}-${i}`} id={`${listId}-${i}`} role="option" aria-selected={i === active}
              className={`flex cursor-pointer items-baseline gap-2 px-2 py-1 ${i === active ? 'bg-accent-soft' : 'hover:bg-sunken'}`}
              onMouseDown={(e) => {
                e.preventDefault();
                pick(r);
              }}>
              <span className="font-medium">{r.patientName}</span>
              <span className="text-xs text-fg-muted">{t(`registry.genders.${r.patientGender as 'M'}`, { defaultValue: r.patientGender })}</span>
              <span className="text-xs text-fg-muted tabular-nums">{r.patientDob ? formatDate(r.patientDob) : ''}</span>
              <span className="text-xs tabular-nums">{r.patientId}</span>
              <span className="ml-auto text-[11px] text-fg-subtle">{t('registry.form.lookupExams', { count: r.exams, date: formatDate(r.lastExamTime) })}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
