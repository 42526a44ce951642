import type { Editor } from '@tiptap/react';
import { forwardRef, useCallback, useId, useImperativeHandle, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConsultationDetail } from '../../../../contract/consultations';
import { ReportEditor, ReportHtml, cleanReportHtml } from '@/features/report';
import { formatDateTime } from '@/lib/format';
import { toasts } from '@/lib/toasts';
import { detailApi } from './api';
import { KeyHint, Section } from '../../../ui/Section';
import type { Write } from './useConsultation';

export interface ResultHandle {
  focus(): void;
  save(): void;
  dirty(): boolean;
}

interface Props {
  detail: ConsultationDetail;
  /** `writeResult` is in the detail's transitions: the experts with the conclusion right, while scheduled or discussed. */
  editable: boolean;
  busy: boolean;
  write: Write;
  onDirty?: (dirty: boolean) => void;
  /** After a successful save: the screen takes the focus back from the editor, so its keys act again. */
  onSaved?: () => void;
}

/** Text of report HTML, to refuse an empty conclusion before asking (areas §5 "result content cannot be empty"). */
function plainText(html: string): string {
  const div = document.createElement('div');
  div.innerHTML = cleanReportHtml(html);
  return (div.textContent ?? '').trim();
}

/**
 * Areas §3 results: the conclusion and the treatment plan, in the report editor (same sanitising as reports). Only
 * offered with `writeResult`; Ctrl+S saves (PUT results with the version). Everyone else reads them.
 */
export const ResultPanel = forwardRef<ResultHandle, Props>(function ResultPanel({ detail, editable, busy, write, onDirty, onSaved }, ref) {
  const { t } = useTranslation();
  const conclusionId = useId();
  const planId = useId();
  const drafts = useRef({ conclusion: detail.result?.conclusion ?? '', treatmentPlan: detail.result?.treatmentPlan ?? '' });
  const editors = useRef<{ diagnosis: Editor | null; finding: Editor | null }>({ diagnosis: null, finding: null });
  const [dirty, setDirty] = useState(false);
  const dirtyNow = useRef(false);
  const [empty, setEmpty] = useState(false);

  const markDirty = useCallback((next: boolean) => {
    dirtyNow.current = next;
    setDirty(next);
    onDirty?.(next);
  }, [onDirty]);
  const change = useCallback((field: 'finding' | 'diagnosis', html: string) => {
    if (field === 'diagnosis') drafts.current.conclusion = html;
    else drafts.current.treatmentPlan = html;
    setEmpty(false);
    markDirty(true);
  }, [markDirty]);
  const ready = useCallback((field: 'finding' | 'diagnosis', editor: Editor | null) => {
    editors.current[field] = editor;
  }, []);
  const noop = useCallback(() => undefined, []);
  const noCommand = useCallback(() => false, []);

  // Ctrl+S with nothing changed does nothing (and, being taken, never opens the browser's "save page").
  const save = useCallback(() => {
    if (busy || !dirtyNow.current) return;
    const { conclusion, treatmentPlan } = drafts.current;
    if (!plainText(conclusion)) {
      setEmpty(true);
      toasts.show({ message: t('consultations.detail.result.empty'), kind: 'warning', duration: 4000 });
      editors.current.diagnosis?.commands.focus();
      return;
    }
    void write((d) => detailApi.results(d.id, { version: d.version, conclusion, treatmentPlan }), t('consultations.detail.result.saved')).then((ok) => {
      if (!ok) return;
      markDirty(false);
      onSaved?.();
    });
  }, [busy, write, t, markDirty, onSaved]);

  useImperativeHandle(ref, () => ({
    focus: () => editors.current.diagnosis?.commands.focus('end'),
    save,
    dirty: () => dirty,
  }), [save, dirty]);

  const result = detail.result;
  if (!editable && !result) {
    return (
      <Section title={t('consultations.detail.result.title')} testId="consultation-result">
        <p className="py-1 text-[13px] text-fg-muted">{t('consultations.detail.result.none')}</p>
      </Section>
    );
  }
  return (
    <Section
      title={t('consultations.detail.result.title')}
      testId="consultation-result"
      actions={editable ? (
        <>
          <span className="text-[12px] text-fg-muted" role="status" data-testid="result-state">
            {busy ? t('common.saving') : dirty ? t('consultations.detail.result.unsaved') : result ? t('common.saved') : ''}
          </span>
          <button type="button" className="btn btn-primary h-7 text-[13px]" disabled={busy || !dirty} onClick={save}>
            {t('consultations.detailCommands.saveResult')} <KeyHint keys="Ctrl+S" />
          </button>
        </>
      ) : result?.by ? <span className="text-[12px] text-fg-muted">{result.by.name} · {formatDateTime(result.at)}</span> : null}
    >
      <h3 id={conclusionId} className="mb-1 text-[12px] font-medium text-fg-muted">{t('consultations.detail.result.conclusion')}</h3>
      {editable ? (
        <div className={`report-editor-box min-h-[8rem] ${empty ? 'border-danger' : ''}`} data-testid="result-conclusion">
          <ReportEditor field="diagnosis" labelId={conclusionId} initialHtml={cleanReportHtml(drafts.current.conclusion)} onChange={change} onSlash={noop} onEscape={noop} onCommandKey={noCommand} onReady={ready} invalid={empty} />
        </div>
      ) : (
        <ReportHtml html={result?.conclusion ?? ''} labelledBy={conclusionId} className="report-readonly rounded-md border border-line px-3 py-2" id="consultation-conclusion" />
      )}
      <h3 id={planId} className="mb-1 mt-3 text-[12px] font-medium text-fg-muted">{t('consultations.detail.result.treatmentPlan')}</h3>
      {editable ? (
        <div className="report-editor-box min-h-[6rem]" data-testid="result-plan">
          <ReportEditor field="finding" labelId={planId} initialHtml={cleanReportHtml(drafts.current.treatmentPlan)} onChange={change} onSlash={noop} onEscape={noop} onCommandKey={noCommand} onReady={ready} />
        </div>
      ) : (
        <ReportHtml html={result?.treatmentPlan || '—'} labelledBy={planId} className="report-readonly rounded-md border border-line px-3 py-2" />
      )}
    </Section>
  );
});
