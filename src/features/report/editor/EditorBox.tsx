import type { ComponentProps } from 'react';
import { ReportEditor } from './ReportEditor';

/** One report editor in its framed box of a least height (the workspace's and the template screen's editors). */
export function EditorBox({ minHeight, ...editor }: { minHeight: string } & ComponentProps<typeof ReportEditor>) {
  return (
    <div className={`report-editor-box ${minHeight}`}>
      <ReportEditor {...editor} />
    </div>
  );
}
