import type { Editor } from '@tiptap/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReportView } from '../../../../contract/reports';
import { EditorBox } from '../editor/EditorBox';
import type { EditorField, SlashOrigin } from '../editor/ReportEditor';
import { ReportHtml } from '../editor/ReportHtml';

interface Props {
  report: ReportView;
  editable: boolean;
  seed: Record<EditorField, string>;
  editorKey: number;
  invalid: boolean;
  autoFocus: boolean;
  onChange: (field: EditorField, html: string) => void;
  onReady: (field: EditorField, editor: Editor | null) => void;
  onSlash: (origin: SlashOrigin) => void;
  onEscape: () => void;
  onCommandKey: (shortcut: string) => boolean;
}

const FIELDS: { field: EditorField; minHeight: string }[] = [
  { field: 'finding', minHeight: 'min-h-[15rem]' },
  { field: 'diagnosis', minHeight: 'min-h-[7rem]' },
];

/**
 * Findings and conclusion. Editable: two TipTap editors started from `seed` (remounted when `editorKey`
 * changes, e.g. a restored draft). Otherwise the stored text, cleaned again as it is shown.
 */
export function EditorsPanel({ report, editable, seed, editorKey, invalid, autoFocus, onChange, onReady, onSlash, onEscape, onCommandKey }: Props) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="flex flex-col gap-4">
      {FIELDS.map(({ field, minHeight }, index) => {
        const labelId = `${id}-${field}`;
        return (
          <section key={field} className="flex flex-col gap-1.5" data-section={field}>
            <div className="flex items-baseline justify-between">
              <h2 id={labelId} className="text-sm font-semibold">{t(`report.fields.${field}`)}</h2>
              {editable && index === 0 && <span className="text-xs text-fg-subtle">{t('report.templates.slashHint')}</span>}
            </div>
            {editable ? (
              <EditorBox field={field} seed={seed} editorKey={editorKey} minHeight={minHeight} labelId={labelId}
                onChange={onChange} onSlash={onSlash} onEscape={onEscape} onCommandKey={onCommandKey} onReady={onReady}
                autoFocus={autoFocus && index === 0} invalid={invalid} />
            ) : (
              <ReportHtml
                html={report[field]}
                labelledBy={labelId}
                className={`report-readonly rounded-md border border-line bg-surface px-3 py-2 ${index === 0 ? 'min-h-[8rem]' : 'min-h-[4rem]'}`}
              />
            )}
          </section>
        );
      })}
    </div>
  );
}
