import { useTranslation } from 'react-i18next';
import type { TemplateNode } from '../../../contract/reports';
import { errorText } from '@/lib/errorText';
import { Alert } from '@/ui/Alert';
import { ConfirmDialog } from '@/ui/ConfirmDialog';
import { Dialog } from '@/ui/Dialog';
import { DiscardBody } from './DiscardBody';
import { ImportDialog, MoveDialog, NameDialog } from './dialogs';
import type { Pending } from './pending';
import { findNode, moveTargets } from './treeModel';

/** The dialogs of a tree's writes; the one `pending` names is open. A refusal (`error`) stays in it. */
export function TreeDialogs({ pending, roots, draftName, busy, error, onName, onMove, onRemove, onImport, onDiscard, onCancel }: {
  pending: Pending | null; roots: TemplateNode[] | null; draftName: string; busy: boolean; error: unknown;
  onName: (name: string) => void; onMove: (parentId: number | null) => void; onRemove: () => void; onImport: () => void;
  onDiscard: (then: () => void) => void; onCancel: () => void;
}) {
  const { t } = useTranslation();
  const pathOf = (parentId: number | null) => {
    if (parentId === null || !roots) return t('templates.move.top');
    return findNode(roots, parentId)?.name ?? t('templates.move.top');
  };
  return (
    <>
    <NameDialog
      open={pending?.kind === 'new' || pending?.kind === 'rename'}
      title={pending?.kind === 'rename' ? t('templates.dialogs.rename') : pending?.kind === 'new' && pending.folder ? t('templates.dialogs.newFolder') : t('templates.dialogs.newTemplate')}
      initial={pending?.kind === 'rename' ? pending.node.name : ''}
      busy={busy}
      error={error}
      onSubmit={onName}
      onCancel={onCancel}
    />
    <MoveDialog
      open={pending?.kind === 'move'}
      name={pending?.kind === 'move' ? pending.node.name : ''}
      targets={pending?.kind === 'move' && roots ? moveTargets(roots, pending.node.id) : []}
      busy={busy}
      error={error}
      onPick={onMove}
      onCancel={onCancel}
    />
    <ConfirmDialog
      open={pending?.kind === 'delete'}
      title={t(pending?.kind === 'delete' && pending.node.isFolder ? 'templates.delete.folderTitle' : 'templates.delete.title')}
      confirmLabel={t('templates.delete.confirm')}
      busy={busy}
      onConfirm={onRemove}
      onCancel={onCancel}
      testId="template-delete-ok"
    >
      <p>{pending?.kind === 'delete' ? t(pending.node.isFolder ? 'templates.delete.folderBody' : 'templates.delete.body', { name: pending.node.name }) : null}</p>
      {error !== null && error !== undefined && <div className="mt-2"><Alert>{errorText(t, error)}</Alert></div>}
    </ConfirmDialog>
    <ImportDialog
      open={pending?.kind === 'import'}
      fileName={pending?.kind === 'import' ? pending.fileName : ''}
      document={pending?.kind === 'import' ? pending.document : null}
      problem={pending?.kind === 'import' ? pending.problem : null}
      where={pending?.kind === 'import' ? pathOf(pending.parentId) : ''}
      busy={busy}
      error={error}
      onConfirm={onImport}
      onCancel={onCancel}
    />
    <Dialog open={pending?.kind === 'discard'} title={t('templates.discard.title')} onCancel={onCancel} width={420}>
      {pending?.kind === 'discard' && (
        <DiscardBody
          name={draftName}
          onDiscard={() => onDiscard(pending.then)}
          onCancel={onCancel}
        />
      )}
    </Dialog>
    </>
  );
}
