import type { TemplateNode } from '../../../contract/reports';
import type { TemplateDocument } from '../../../contract/templates';

/** What a tree's screen is asking about: a dialog's subject, or the unsaved changes before `then`. */
export type Pending =
  | { kind: 'new'; folder: boolean; parentId: number | null }
  | { kind: 'rename'; node: TemplateNode }
  | { kind: 'move'; node: TemplateNode }
  | { kind: 'delete'; node: TemplateNode }
  | { kind: 'import'; fileName: string; document: TemplateDocument | null; problem: string | null; parentId: number | null }
  | { kind: 'discard'; then: () => void };

