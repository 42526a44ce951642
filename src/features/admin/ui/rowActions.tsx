import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/ui/ConfirmDialog';
import { useWrite } from './useWrite';

/**
 * The scaffold of an administration table whose rows are changed in a dialog and deleted after a question (doctors,
 * extensions, extension packages, assign rules, colour rules): which row is being edited (or `new`), which is asked
 * about, and the one write at a time. `editing` may hold more than a row (a package's dialog knows new from edit).
 */
export function useRowActions<Row, Editing = Row>({ reload, focusAfterDelete }: {
  reload: () => void;
  /** The deleted row's buttons are gone: once the question has closed, the focus goes here rather than to the page. */
  focusAfterDelete?: RefObject<HTMLElement | null>;
}) {
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<Row | null>(null);
  const { busy, run } = useWrite();
  const refocus = useRef(false);
  // The confirm dialog's own effect (a child's) runs first, so the focus it hands back is moved after it.
  useEffect(() => {
    if (deleting === null && refocus.current) {
      refocus.current = false;
      focusAfterDelete?.current?.focus();
    }
  }, [deleting, focusAfterDelete]);
  return {
    editing, setEditing, deleting, setDeleting, busy, run,
    /** The dialog closed: a save reloads the table. */
    closeEdit: (saved: boolean) => {
      setEditing(null);
      if (saved) reload();
    },
    /** Sends the asked delete; on success the question closes and the table is read again. */
    confirmDelete: (call: (row: Row) => Promise<unknown>, success: (row: Row) => string) => {
      const row = deleting;
      if (row === null) return;
      void run(() => call(row), success(row)).then((ok) => {
        if (ok) {
          refocus.current = focusAfterDelete !== undefined;
          setDeleting(null);
          reload();
        }
      });
    },
  };
}

export type RowActionsState<Row, Editing = Row> = ReturnType<typeof useRowActions<Row, Editing>>;

/** The delete question of such a table: Cancel has the focus; its body names the row. */
export function DeleteConfirm<Row>({ rows, title, confirmLabel, body, onConfirm }: {
  rows: Pick<RowActionsState<Row, unknown>, 'deleting' | 'setDeleting' | 'busy'>; title: string; confirmLabel: string; body: ReactNode; onConfirm: () => void;
}) {
  return (
    <ConfirmDialog open={rows.deleting !== null} title={title} confirmLabel={confirmLabel} busy={rows.busy} focus="cancel"
      onCancel={() => rows.setDeleting(null)} onConfirm={onConfirm}>
      <p className="text-[13px]">{body}</p>
    </ConfirmDialog>
  );
}

/**
 * A row's buttons: Edit, then Delete in the danger colour, each named with the row for a screen reader. `boxed`: in a
 * right-aligned box of their own (the organisation's settings); else inline in the cell (the group's rules).
 */
export function RowActions({ editLabel, deleteLabel, editName, deleteName, onEdit, onDelete, disabled, boxed = true }: {
  editLabel: string; deleteLabel: string; editName: string; deleteName: string;
  onEdit: () => void; onDelete: () => void; disabled?: boolean; boxed?: boolean;
}) {
  const buttons = (
    <>
      <button type="button" className="btn btn-ghost h-6 px-2 text-xs" aria-label={editName} disabled={disabled} onClick={onEdit}>{editLabel}</button>
      <button type="button" className="btn btn-ghost h-6 px-2 text-xs text-danger" aria-label={deleteName} disabled={disabled} onClick={onDelete}>{deleteLabel}</button>
    </>
  );
  return boxed ? <div className="flex justify-end gap-1">{buttons}</div> : buttons;
}

/** The organisation settings' row buttons (their labels and names). */
export function OrgRowActions({ name, onEdit, onDelete, disabled }: { name: string; onEdit: () => void; onDelete: () => void; disabled: boolean }) {
  const { t } = useTranslation();
  return (
    <RowActions editLabel={t('admin.orgParts.edit')} deleteLabel={t('admin.orgParts.delete')} disabled={disabled} onEdit={onEdit} onDelete={onDelete}
      editName={t('admin.orgParts.editOf', { name })} deleteName={t('admin.orgParts.deleteOf', { name })} />
  );
}
