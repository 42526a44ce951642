import { EditorContent, useEditor, type Editor } from '@tiptap/react';
import type { Transaction } from '@tiptap/pm/state';
import { ReplaceStep } from '@tiptap/pm/transform';
import { useEffect, useRef } from 'react';
import { reportHardBreak, reportStarterKit, SLASH_TRIGGERS, workspaceKeys } from './extensions';

export type EditorField = 'finding' | 'diagnosis';

/** Where the template picker was opened from: the editor and the position of the typed trigger character. */
export interface SlashOrigin {
  field: EditorField;
  /** Document position of the trigger character; it spans [from, from + 1). */
  from: number;
}

interface Props {
  field: EditorField;
  /** Accessible name and the id of the label element that names it. */
  labelId: string;
  /** Clean HTML to start from (the caller has sanitised it). */
  initialHtml: string;
  onChange: (field: EditorField, html: string) => void;
  onSlash: (origin: SlashOrigin) => void;
  onEscape: () => void;
  onCommandKey: (shortcut: string) => boolean;
  onReady: (field: EditorField, editor: Editor | null) => void;
  autoFocus?: boolean;
  invalid?: boolean;
}

/** The trigger position when this transaction typed one at the start of a line (not pasted, not undone). */
function typedTrigger(editor: Editor, transaction: Transaction): number | null {
  const { selection } = editor.state;
  if (!selection.empty || transaction.getMeta('uiEvent') === 'paste' || transaction.getMeta('history$')) return null;
  const { $from } = selection;
  if ($from.parentOffset !== 1) return null;
  const typed = $from.parent.textBetween(0, 1);
  if (!SLASH_TRIGGERS.includes(typed)) return null;
  const inserted = transaction.steps.some((step) => step instanceof ReplaceStep && step.slice.content.textBetween(0, step.slice.content.size) === typed);
  return inserted ? $from.pos - 1 : null;
}

/**
 * One of the two report editors (findings, conclusion). Typing is kept by the editor itself; the workspace
 * reads the HTML on every change (for the local draft) without re-rendering this component.
 */
export function ReportEditor({ field, labelId, initialHtml, onChange, onSlash, onEscape, onCommandKey, onReady, autoFocus, invalid }: Props) {
  // The editor is created once; its callbacks read the latest props through this ref.
  const latest = useRef({ onChange, onSlash, onEscape, onCommandKey });
  useEffect(() => {
    latest.current = { onChange, onSlash, onEscape, onCommandKey };
  });

  const editor = useEditor({
    extensions: [reportStarterKit, reportHardBreak, workspaceKeys(() => ({ onEscape: () => latest.current.onEscape(), onCommandKey: (key) => latest.current.onCommandKey(key) }))],
    content: initialHtml,
    immediatelyRender: true,
    shouldRerenderOnTransaction: false,
    editorProps: {
      attributes: {
        class: 'report-prose report-editor',
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': labelId,
        'data-field': field,
        spellcheck: 'false',
      },
    },
    onUpdate: ({ editor: current, transaction }) => {
      latest.current.onChange(field, current.getHTML());
      const from = typedTrigger(current, transaction);
      if (from !== null) latest.current.onSlash({ field, from });
    },
  });

  useEffect(() => {
    onReady(field, editor);
    return () => onReady(field, null);
  }, [editor, field, onReady]);

  // The caret goes to the end of the text on opening, unless the user has already put the focus somewhere (the
  // viewer, a tab) while the report was loading: an editor that mounts late must not take it away from them.
  useEffect(() => {
    if (!autoFocus || !editor) return;
    const active = document.activeElement;
    if (active === null || active === document.body) editor.commands.focus('end');
  }, [autoFocus, editor]);

  return <EditorContent editor={editor} className={`report-editor-frame ${invalid ? 'is-invalid' : ''}`} />;
}
