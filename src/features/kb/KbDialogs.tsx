import { useTranslation } from 'react-i18next';
import type { KbItem } from '../../../contract/kb';
import { ConfirmDialog } from '@/ui/ConfirmDialog';
import { FolderPicker, NameDialog, TemplatePicker } from './dialogs';

export type DialogState = { kind: 'text' | 'folder' | 'template' } | { kind: 'delete'; item: KbItem; below: number } | { kind: 'move'; item: KbItem } | null;

type NewItem = { type: 'text' | 'folder'; name: string } | { type: 'template'; referenceId: number };

/** The knowledge base's open dialog: a new text or folder's name, a template to link, a folder to move into, a delete to confirm. */
export function KbDialogs({ dialog, bucketId, items, busy, onCreate, onMove, onRemove, onCancel }: {
  dialog: DialogState;
  bucketId: number;
  items: KbItem[];
  busy: boolean;
  onCreate: (input: NewItem) => void;
  onMove: (item: KbItem, parentId: number | null) => void;
  onRemove: (item: KbItem) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      {(dialog?.kind === 'text' || dialog?.kind === 'folder') && (
        <NameDialog
          title={t(dialog.kind === 'text' ? 'kb.dialogs.newText' : 'kb.dialogs.newFolder')}
          busy={busy}
          onSubmit={(name) => onCreate({ type: dialog.kind as 'text' | 'folder', name })}
          onCancel={onCancel}
        />
      )}
      {dialog?.kind === 'template' && (
        <TemplatePicker bucketId={bucketId} busy={busy} onPick={(referenceId) => onCreate({ type: 'template', referenceId })} onCancel={onCancel} />
      )}
      {dialog?.kind === 'move' && (
        <FolderPicker items={items} moving={dialog.item} busy={busy} onPick={(parentId) => onMove(dialog.item, parentId)} onCancel={onCancel} />
      )}
      <ConfirmDialog
        open={dialog?.kind === 'delete'}
        title={t('kb.dialogs.deleteTitle')}
        confirmLabel={t('kb.dialogs.delete')}
        busy={busy}
        focus={dialog?.kind === 'delete' && dialog.below > 0 ? 'cancel' : 'confirm'}
        onConfirm={() => dialog?.kind === 'delete' && onRemove(dialog.item)}
        onCancel={onCancel}
        testId="kb-delete-confirm"
      >
        {dialog?.kind === 'delete' && (
          <p>{dialog.below > 0 ? t('kb.dialogs.deleteWithChildren', { name: dialog.item.name, count: dialog.below }) : t('kb.dialogs.deleteOne', { name: dialog.item.name })}</p>
        )}
      </ConfirmDialog>
    </>
  );
}
