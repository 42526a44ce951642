import type { Editor } from '@tiptap/react';
import type { TemplateNode } from '../../../../contract/reports';
import { SLASH_TRIGGERS } from '../editor/extensions';
import type { EditorField, SlashOrigin } from '../editor/ReportEditor';
import { hasText } from '../../../../machines/reportModel/fields';
import { cleanReportHtml } from '../model/sanitize';

/**
 * How a template enters the report (decision in docs/decisions.md "Report workspace"):
 * - insert (Enter): an empty editor takes the template's text; one with text gets it appended, or, when the
 *   picker was opened by typing '/' at the start of a line, at that line in place of the '/'. Nothing written
 *   is lost.
 * - replace (Alt+Enter): findings and conclusion become the template's. Undo (Ctrl+Z) in each editor brings
 *   the earlier text back.
 * A template part without text (a template with only a conclusion) leaves that editor alone.
 */
export type InsertMode = 'insert' | 'replace';

export type Editors = Record<EditorField, Editor | null>;

function triggerStillAt(editor: Editor, from: number): boolean {
  const size = editor.state.doc.content.size;
  return from >= 0 && from + 1 <= size && SLASH_TRIGGERS.includes(editor.state.doc.textBetween(from, from + 1));
}

export function insertTemplate(editors: Editors, template: Pick<TemplateNode, 'finding' | 'diagnosis'>, mode: InsertMode, origin: SlashOrigin | null): void {
  for (const field of ['finding', 'diagnosis'] as const) {
    const editor = editors[field];
    const html = cleanReportHtml(template[field]);
    if (!editor || !hasText(html)) continue;
    if (mode === 'replace') {
      editor.chain().setContent(html).run();
    } else if (origin?.field === field && triggerStillAt(editor, origin.from)) {
      editor.chain().deleteRange({ from: origin.from, to: origin.from + 1 }).insertContentAt(origin.from, html).run();
    } else if (editor.isEmpty) {
      editor.chain().setContent(html).run();
    } else {
      editor.chain().insertContentAt(editor.state.doc.content.size, html).run();
    }
  }
  // The cursor goes back where the user was writing, or into the findings.
  const target = editors[origin?.field ?? 'finding'];
  target?.commands.focus(origin ? undefined : 'end');
}
