import { Extension, type AnyExtension } from '@tiptap/core';
import HardBreak from '@tiptap/extension-hard-break';
import StarterKit from '@tiptap/starter-kit';

/**
 * What a report needs and no more: paragraphs, bold, italic, underline, lists and one heading level for
 * section titles. Everything else the starter kit brings is off; links, code and rules have no place in a
 * radiology report and would only be typed by accident. What stays is a subset of the server's allowlist.
 */
export const reportStarterKit = StarterKit.configure({
  heading: { levels: [3] },
  hardBreak: false,
  blockquote: false,
  code: false,
  codeBlock: false,
  horizontalRule: false,
  link: false,
  strike: false,
  trailingNode: false,
});

/**
 * Line breaks with Shift+Enter only. The starter kit's hard break also takes Ctrl+Enter, which in the workspace
 * is "submit": left unbound here, the key leaves the editor unhandled and reaches the report's commands.
 */
export const reportHardBreak = HardBreak.extend({
  addKeyboardShortcuts() {
    return { 'Shift-Enter': () => this.editor.commands.setHardBreak() };
  },
});

export interface WorkspaceKeyHandlers {
  /** Esc inside the editor: leave it (a second Esc, now outside any text field, goes back to the worklist). */
  onEscape: () => void;
  /** A page command's key that ProseMirror would swallow (it claims every Enter); returns whether a command ran. */
  onCommandKey: (shortcut: string) => boolean;
}

/**
 * The editor's own keys for the workspace. ProseMirror prevents the default of every Enter it sees, so the
 * command registry would never get Ctrl+Enter from inside the editor: the editor hands it over itself.
 */
export function workspaceKeys(handlers: () => WorkspaceKeyHandlers): AnyExtension {
  return Extension.create({
    name: 'reportWorkspaceKeys',
    priority: 1000,
    addKeyboardShortcuts() {
      return {
        Escape: () => {
          handlers().onEscape();
          return true;
        },
        'Mod-Enter': () => {
          handlers().onCommandKey('$mod+Enter');
          return true;
        },
      };
    },
  });
}

/**
 * Characters that open the template picker when typed at the start of a line: '/', and what a Chinese input
 * method gives for the same key ('、' in Chinese punctuation mode, '／' full width). No Chinese line starts
 * with an enumeration comma, so the trigger never steals a real character: the typed one stays in the text
 * until a template replaces it, and Esc in the picker keeps it.
 */
export const SLASH_TRIGGERS: readonly string[] = ['/', '／', '、'];
