import { useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PrintImage, PrintTemplate } from '../../../../../contract/printTemplates';
import { errorText } from '@/lib/errorText';

/** A labelled field of the print-template form: its hint, or its problem said as an alert. */
export function Field({ id, label, hint, problem, aside, children }: { id: string; label: string; hint?: string; problem?: string; aside?: ReactNode; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-baseline gap-2">
        <label htmlFor={id} className="text-xs text-fg-muted">{label}</label>
        <span className="ml-auto">{aside}</span>
      </div>
      {children}
      {problem ? <p className="text-[11px] text-danger" role="alert">{problem}</p> : hint && <p className="text-[11px] text-fg-subtle">{hint}</p>}
    </div>
  );
}

/** A logo or stamp: the stored image, a file picker (the server judges the bytes and its refusal shows here), remove. */
export function ImagePicker({ kind, template, error, busy, hint, onPick, onClear }: {
  kind: PrintImage;
  template: PrintTemplate | null;
  error: unknown;
  busy: boolean;
  hint: string;
  onPick: (kind: PrintImage, file: File | undefined) => void;
  onClear: (kind: PrintImage) => void;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const url = template?.[kind] ?? null;
  const label = t(`printTemplates.fields.${kind}` as 'printTemplates.fields.logo');
  return (
    <div className="flex flex-col gap-1" data-testid={`picker-${kind}`}>
      <span className="text-xs text-fg-muted">{label}</span>
      <div className="flex items-center gap-2">
        <div className="flex size-12 shrink-0 items-center justify-center rounded border border-line bg-[repeating-conic-gradient(var(--line)_0%_25%,transparent_0%_50%)] bg-[length:10px_10px]">
          {url ? <img src={url} alt={label} className="max-h-11 max-w-11 object-contain" data-testid={`${kind}-image`} /> : <span className="text-[11px] text-fg-subtle">—</span>}
        </div>
        <input ref={input} type="file" className="sr-only" tabIndex={-1} aria-hidden="true" accept={kind === 'logo' ? 'image/png,image/jpeg' : 'image/png'} data-testid={`${kind}-file`}
          onChange={(e) => { onPick(kind, e.target.files?.[0]); e.target.value = ''; }} />
        <button type="button" className="btn h-7 text-xs" disabled={!template || busy} onClick={() => input.current?.click()}>
          {busy ? t('printTemplates.uploading') : t('printTemplates.choose')}
        </button>
        {url && <button type="button" className="btn btn-ghost h-7 text-xs" disabled={busy} onClick={() => onClear(kind)}>{t('printTemplates.removeImage')}</button>}
      </div>
      {error ? <ErrorLine error={error} /> : <p className="text-[11px] text-fg-subtle">{template ? hint : t('printTemplates.hints.saveBeforeImages')}</p>}
    </div>
  );
}

function ErrorLine({ error }: { error: unknown }) {
  const { t } = useTranslation();
  return <p className="text-[11px] text-danger" role="alert" data-testid="image-error">{errorText(t, error)}</p>;
}
