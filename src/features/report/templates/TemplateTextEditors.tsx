import { useCallback, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { EditorBox } from '../editor/EditorBox';
import type { EditorField } from '../editor/ReportEditor';
import { ReportHtml } from '../editor/ReportHtml';
import '../report.css';

interface Props {
  /** Remounts both editors when it changes (another template opened, or its saved text taken back). */
  editorKey: string;
  /** Clean HTML to start from. */
  seed: Record<EditorField, string>;
  editable: boolean;
  onChange: (field: EditorField, html: string) => void;
  /** Esc in an editor: the caller moves the focus out (back to its list). */
  onEscape: () => void;
}

const FIELDS: { field: EditorField; minHeight: string }[] = [
  { field: 'finding', minHeight: 'min-h-[12rem]' },
  { field: 'diagnosis', minHeight: 'min-h-[6rem]' },
];

/**
 * A template's findings and conclusion in the report's own editors (same extensions, same look), for the template
 * management screen. The slash picker and the workspace's keys do not apply here: a template is not a report.
 */
export function TemplateTextEditors({ editorKey, seed, editable, onChange, onEscape }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const noSlash = useCallback(() => undefined, []);
  const noReady = useCallback(() => undefined, []);
  const noCommand = useCallback(() => false, []);
  return (
    <div className="flex flex-col gap-4">
      {FIELDS.map(({ field, minHeight }) => {
        const labelId = `${id}-${field}`;
        return (
          <section key={field} className="flex flex-col gap-1.5" data-template-field={field}>
            <h3 id={labelId} className="text-sm font-semibold">{t(`report.fields.${field}`)}</h3>
            {editable ? (
              <EditorBox field={field} seed={seed} editorKey={editorKey} minHeight={minHeight} labelId={labelId}
                onChange={onChange} onSlash={noSlash} onEscape={onEscape} onCommandKey={noCommand} onReady={noReady} />
            ) : (
              <ReportHtml html={seed[field]} labelledBy={labelId} className={`report-readonly rounded-md border border-line px-3 py-2 ${minHeight}`} />
            )}
          </section>
        );
      })}
    </div>
  );
}
