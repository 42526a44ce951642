import { useState } from 'react';
import { useCommands } from '@/lib/commands';
import { useSession } from '@/lib/session';
import { examEditEditorCommands, examEditWorklistCommands, type ExamEditCtx } from './commands';
import { EditExamDialog } from './EditExamDialog';

export interface EditExamEntryProps {
  /** The exam in hand, or null (an empty worklist). */
  exam: { id: number; bucketId: number } | null;
  place: 'editor' | 'worklist';
}

/**
 * "Edit exam information" for the exam in hand: a command (Shift+I on the worklist, Alt+Shift+I in the workspace, and
 * the palette) for accounts holding exam_update in the exam's organisation. The app composes it into both screens.
 * After a save the page is not reloaded: the worklist's polling and the workspace's next read show the new values.
 */
export function EditExamEntry({ exam, place }: EditExamEntryProps) {
  const { can } = useSession();
  const [editing, setEditing] = useState<number | null>(null);
  const ctx: ExamEditCtx = {
    allowed: exam !== null && can('exam_update', exam.bucketId),
    edit: () => exam && setEditing(exam.id),
  };
  useCommands(place === 'editor' ? examEditEditorCommands : examEditWorklistCommands, ctx);
  return editing === null ? null : <EditExamDialog examId={editing} onClose={() => setEditing(null)} />;
}
