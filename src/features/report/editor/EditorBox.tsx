import type { ComponentProps } from 'react';
import { ReportEditor, type EditorField } from './ReportEditor';

/**
 * One field's report editor in its framed box of a least height (the workspace's and the template screen's
 * editors), started from `seed` and started again whenever `editorKey` changes.
 */
export function EditorBox({ field, seed, editorKey, minHeight, ...editor }: {
  field: EditorField; seed: Record<EditorField, string>; editorKey: string | number; minHeight: string;
} & Omit<ComponentProps<typeof ReportEditor>, 'field' | 'initialHtml'>) {
  return (
    <div className={`report-editor-box ${minHeight}`}>
      <ReportEditor key={`${field}-${editorKey}`} field={field} initialHtml={seed[field]} {...editor} />
    </div>
  );
}
