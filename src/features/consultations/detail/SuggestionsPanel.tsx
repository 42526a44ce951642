import type { Editor } from '@tiptap/react';
import { forwardRef, useCallback, useId, useImperativeHandle, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConsultationDetail } from '../../../../contract/consultations';
import { ReportEditor, ReportHtml, cleanReportHtml } from '@/features/report';
import { formatDateTime } from '@/lib/format';
import { detailApi } from './api';
import { KeyHint, Section } from '../../../ui/Section';
import type { Write } from './useConsultation';

export interface SuggestionsHandle {
  focus(): void;
}

/** Areas §3 suggestions: every side's opinions in order, and the report editor to add one (with `suggest`). */
export const SuggestionsPanel = forwardRef<SuggestionsHandle, { detail: ConsultationDetail; canSuggest: boolean; busy: boolean; write: Write }>(
  function SuggestionsPanel({ detail, canSuggest, busy, write }, ref) {
    const { t } = useTranslation();
    const labelId = useId();
    const [open, setOpen] = useState(false);
    const [round, setRound] = useState(0);
    const [hasText, setHasText] = useState(false);
    const draft = useRef('');
    const editor = useRef<Editor | null>(null);
    const noop = useCallback(() => undefined, []);
    const ready = useCallback((_f: string, e: Editor | null) => {
      editor.current = e;
      e?.commands.focus();
    }, []);
    const change = useCallback((_f: string, html: string) => {
      draft.current = html;
      const div = document.createElement('div');
      div.innerHTML = cleanReportHtml(html);
      setHasText((div.textContent ?? '').trim() !== '');
    }, []);
    useImperativeHandle(ref, () => ({
      focus: () => (open ? editor.current?.commands.focus() : setOpen(true)),
    }), [open]);

    const submit = async () => {
      if (!hasText) return;
      if (await write((d) => detailApi.suggest(d.id, draft.current), t('consultations.detail.suggestions.added'))) {
        draft.current = '';
        setHasText(false);
        setRound((n) => n + 1);
        setOpen(false);
      }
    };

    return (
      <Section
        title={t('consultations.detail.suggestions.title')}
        count={detail.suggestions.length}
        testId="consultation-suggestions"
        actions={canSuggest && !open && (
          <button type="button" className="btn h-7 text-[13px]" onClick={() => setOpen(true)}>{t('consultations.detailCommands.suggest')} <KeyHint keys="O" /></button>
        )}
      >
        {detail.suggestions.length === 0 && !open && <p className="py-1 text-[13px] text-fg-muted">{t('consultations.detail.suggestions.none')}</p>}
        <ol className="flex flex-col gap-2">
          {detail.suggestions.map((s) => (
            <li key={s.id} className="border-l-2 border-line pl-2">
              <p className="text-[12px] text-fg-muted">{s.author.name}{s.author.bucketName ? ` · ${s.author.bucketName}` : ''} · {formatDateTime(s.created)}</p>
              <ReportHtml html={s.content} className="text-[13px]" />
            </li>
          ))}
        </ol>
        {open && (
          <div className="mt-2 flex flex-col gap-2">
            <span id={labelId} className="text-[12px] text-fg-muted">{t('consultations.detail.suggestions.new')}</span>
            <div className="report-editor-box min-h-[6rem]" data-testid="suggestion-editor">
              <ReportEditor key={round} field="finding" labelId={labelId} initialHtml="" onChange={change} onSlash={noop} onEscape={() => setOpen(false)} onCommandKey={(key) => {
                if (key === '$mod+Enter') void submit();
                return true;
              }} onReady={ready} />
            </div>
            <div className="flex justify-end gap-2">
              <button type="button" className="btn" onClick={() => setOpen(false)}>{t('common.cancel')}</button>
              <button type="button" className="btn btn-primary" disabled={busy || !hasText} onClick={() => void submit()}>
                {t('consultations.detail.suggestions.submit')} <KeyHint keys="Ctrl+Enter" />
              </button>
            </div>
          </div>
        )}
      </Section>
    );
  },
);
