import { useCallback, useEffect, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TemplateNode, TemplateUpsertInput } from '../../../contract/reports';
import { CommandScope, useCommands } from '@/lib/commands';
import { saveBlob } from '@/lib/download';
import { errorText } from '@/lib/errorText';
import { isSessionEndingError } from '@/lib/http';
import { toasts } from '@/lib/toasts';
import { useLeaveWarning } from '@/lib/useLeaveWarning';
import { cleanReportHtml, invalidateTemplates } from '@/features/report';
import { templatesApi, type TreeOwner } from './api';
import { templatesCommands, type TemplatesCommandContext } from './commands';
import { TemplateEditorPanel, draftOf, sameDraft, type Draft } from './TemplateEditorPanel';
import { TemplateTree } from './TemplateTree';
import { findNode, focusAfterDelete, moveCursor, openTo, targetFolder, type TreeKey } from './treeModel';
import type { TreeChoice } from './choices';
import { readTemplateFile } from './importFile';
import type { Pending } from './pending';
import { TreeDialogs } from './TreeDialogs';
import { TreeHeader } from './TreeHeader';
import { ownerFields, TreeLoadState, upsertBody } from './treeParts';

/**
 * One tree's screen: the tree at the left with its keys, the chosen template's editor at the right, and the dialogs
 * of its writes (new, rename, move, delete, import, discard unsaved changes).
 */
export function TreeWorkspace({ choice, choices, onSwitch }: { choice: TreeChoice; choices: TreeChoice[]; onSwitch: (key: string) => void }) {
  const { t } = useTranslation();
  const [owner] = useState<TreeOwner>(choice.owner);
  const [roots, setRoots] = useState<TemplateNode[] | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [cursor, setCursor] = useState<{ active: number | null; open: ReadonlySet<number> }>({ active: null, open: new Set() });
  /** The edits of one node; the editor shows them while they differ from the stored node, else the cursor's node. */
  const [edit, setEdit] = useState<{ id: number; draft: Draft } | null>(null);
  const [editorReset, setEditorReset] = useState(0);
  const focusRequest = useRef<{ id: number; where: 'finding' | 'name' } | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);
  const [dialogError, setDialogError] = useState<unknown>(null);
  const treeRef = useRef<HTMLUListElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const nameInput = useRef<HTMLInputElement>(null);
  const editorArea = useRef<HTMLDivElement>(null);

  const load = useCallback(async (owner: TreeOwner) => {
    try {
      const answer = await templatesApi.tree(owner);
      setRoots(answer.items);
      setLoadError(null);
      return answer.items;
    } catch (error) {
      setLoadError(error);
      return null;
    }
  }, []);

  useEffect(() => {
    let live = true;
    templatesApi.tree(owner).then(
      (answer) => {
        if (!live) return;
        setRoots(answer.items);
        if (answer.items[0]) setCursor({ active: answer.items[0].id, open: new Set() });
      },
      (error: unknown) => live && setLoadError(error),
    );
    return () => {
      live = false;
    };
  }, [owner]);

  const edited = roots && edit ? findNode(roots, edit.id) : null;
  const dirty = !!edited && !!edit && !sameDraft(draftOf(edited), edit.draft);
  const editingId = dirty ? edit!.id : cursor.active;
  const editing = roots && editingId !== null ? findNode(roots, editingId) : null;
  const draft = editing ? (edit?.id === editing.id ? edit.draft : draftOf(editing)) : null;
  const setDraft = (change: Partial<Draft>) => editing && draft && setEdit({ id: editing.id, draft: { ...draft, ...change } });

  // A focus asked for a node (a new template's findings, Enter) lands once its editor is there.
  useEffect(() => {
    const request = focusRequest.current;
    if (!request || request.id !== editingId) return;
    const target = request.where === 'name'
      ? nameInput.current
      : editorArea.current?.querySelector<HTMLElement>('[data-template-field="finding"] [contenteditable="true"]');
    if (target) {
      focusRequest.current = null;
      target.focus();
    }
  });

  // Leaving the page with unsaved text asks the browser's own question.
  useLeaveWarning(dirty);

  /** Runs `then` now, or after the user agreed to drop the unsaved changes. */
  const guard = useCallback((then: () => void) => {
    if (dirty) setPending({ kind: 'discard', then });
    else then();
  }, [dirty]);

  /** Shows `node` in the editor (its stored text: any edits of another node were saved or dropped before). */
  const open = (node: TemplateNode, focus: 'name' | 'finding' | 'none', items: TemplateNode[] | null = roots) => {
    setEdit(null);
    setEditorReset((k) => k + 1);
    setCursor((c) => ({ active: node.id, open: items ? openTo(items, c.open, node.id) : c.open }));
    focusRequest.current = focus === 'none' ? null : { id: node.id, where: focus };
  };

  const focusTree = () => requestAnimationFrame(() => treeRef.current?.focus());

  /** Runs a write from a dialog: on success the tree is read again, the dialog closes and the cursor goes to `focusId`. */
  const after = async <T extends TemplateNode | void>(result: Promise<T>, message: string, focusId?: (node: T) => number | null): Promise<{ node: T; items: TemplateNode[] | null } | null> => {
    setBusy(true);
    setDialogError(null);
    try {
      const node = await result;
      invalidateTemplates();
      const items = await load(owner);
      setPending(null);
      toasts.show({ message, kind: 'success' });
      const id = focusId ? focusId(node) : node ? node.id : null;
      if (items && id !== null) setCursor((c) => ({ active: id, open: openTo(items, c.open, id) }));
      return { node, items };
    } catch (error) {
      if (!isSessionEndingError(error)) setDialogError(error);
      return null;
    } finally {
      setBusy(false);
    }
  };

  const bodyFor = (node: TemplateNode, change: Partial<TemplateUpsertInput>) => upsertBody(owner, node, change);

  const save = async () => {
    if (!editing || !draft || busy) return;
    setBusy(true);
    try {
      const saved = await templatesApi.upsert(bodyFor(editing, {
        name: draft.name.trim(), modality: draft.modality.trim() || null, bodyPart: draft.bodyPart.trim() || null,
        finding: draft.finding, diagnosis: draft.diagnosis,
      }));
      invalidateTemplates();
      await load(owner);
      // What the server stored (sanitised) is the new starting point; the editors keep their text and caret.
      setEdit({ id: saved.id, draft: draftOf(saved) });
      // The server's sanitiser changed the text: the editors start again from what is stored.
      if (cleanReportHtml(draft.finding) !== saved.finding || cleanReportHtml(draft.diagnosis) !== saved.diagnosis) setEditorReset((k) => k + 1);
      toasts.show({ message: t('templates.toast.saved', { name: saved.name }), kind: 'success' });
    } catch (error) {
      if (!isSessionEndingError(error)) toasts.show({ message: errorText(t, error), kind: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const active = roots && cursor.active !== null ? findNode(roots, cursor.active) : null;

  const downloadExport = async () => {
    try {
      const blob = await templatesApi.export(owner);
      saveBlob(blob, `report-templates-${choice.kind}-${owner.bucketId ?? owner.groupId}.json`);
      toasts.show({ message: t('templates.toast.exported'), kind: 'success' });
    } catch (error) {
      if (!isSessionEndingError(error)) toasts.show({ message: errorText(t, error), kind: 'error' });
    }
  };

  const readImport = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const parentId = roots ? targetFolder(roots, cursor.active) : null;
    const { document, problem } = await readTemplateFile(file, t);
    setDialogError(null);
    setPending({ kind: 'import', fileName: file.name, document, problem, parentId });
  };

  const startNew = (folder: boolean) => guard(() => {
    setDialogError(null);
    setPending({ kind: 'new', folder, parentId: roots ? targetFolder(roots, cursor.active) : null });
  });
  function chooseFile() {
    fileInput.current?.click();
  }

  const context: TemplatesCommandContext = {
    treeFocused: () => !!treeRef.current && treeRef.current === document.activeElement,
    hasActive: !!active,
    canWrite: choice.canWrite && pending === null,
    canSave: choice.canWrite && dirty && !busy && pending === null,
    hasTree: roots !== null && pending === null,
    key: (key: TreeKey) => roots && setCursor((c) => moveCursor(roots, c, key)),
    edit: () => {
      if (!active) return;
      if (active.isFolder) setCursor((c) => moveCursor(roots!, c, c.open.has(active.id) ? 'ArrowLeft' : 'ArrowRight'));
      else if (active.id === editingId) requestAnimationFrame(() => editorArea.current?.querySelector<HTMLElement>('[data-template-field="finding"] [contenteditable="true"]')?.focus());
      else guard(() => open(active, 'finding'));
    },
    rename: () => active && (setDialogError(null), setPending({ kind: 'rename', node: active })),
    newTemplate: () => startNew(false),
    newFolder: () => startNew(true),
    remove: () => active && (setDialogError(null), setPending({ kind: 'delete', node: active })),
    move: () => active && (setDialogError(null), setPending({ kind: 'move', node: active })),
    save: () => void save(),
    exportTree: () => void downloadExport(),
    importTree: chooseFile,
  };
  useCommands(templatesCommands, context);

  const closeDialog = () => {
    setPending(null);
    setDialogError(null);
    focusTree();
  };

  const submitName = async (name: string) => {
    if (!pending) return;
    if (pending.kind === 'new') {
      const done = await after(
        templatesApi.upsert({ ...ownerFields(owner), parentId: pending.parentId, name, isFolder: pending.folder }),
        t(pending.folder ? 'templates.toast.folderCreated' : 'templates.toast.created', { name }),
      );
      if (done && !done.node.isFolder) open(done.node, 'finding', done.items);
      else if (done) focusTree();
    } else if (pending.kind === 'rename') {
      const node = pending.node;
      const own = node.id === editingId && draft ? { modality: draft.modality.trim() || null, bodyPart: draft.bodyPart.trim() || null, finding: draft.finding, diagnosis: draft.diagnosis } : {};
      const done = await after(templatesApi.upsert(bodyFor(node, { ...own, name })), t('templates.toast.renamed', { name }));
      if (done && done.node.id === edit?.id) setEdit(null);
      if (done) focusTree();
    }
  };

  const moveTo = async (parentId: number | null) => {
    if (pending?.kind !== 'move') return;
    const done = await after(templatesApi.upsert(bodyFor(pending.node, { parentId })), t('templates.toast.moved', { name: pending.node.name }));
    if (done) focusTree();
  };

  const remove = async () => {
    if (pending?.kind !== 'delete' || !roots) return;
    const node = pending.node;
    const next = focusAfterDelete(roots, cursor.open, node.id);
    const done = await after(templatesApi.remove(node.id), t('templates.toast.deleted', { name: node.name }), () => next);
    if (!done) return;
    if (node.id === edit?.id) setEdit(null);
    focusTree();
  };

  const runImport = async () => {
    if (pending?.kind !== 'import' || !pending.document) return;
    setBusy(true);
    setDialogError(null);
    try {
      const answer = await templatesApi.import(owner, pending.parentId, pending.document);
      invalidateTemplates();
      const items = await load(owner);
      setPending(null);
      toasts.show({ message: t('templates.toast.imported', { count: answer.created }), kind: 'success' });
      const first = answer.items[0];
      if (items && first) setCursor((c) => ({ active: first.id, open: openTo(items, c.open, first.id) }));
      focusTree();
    } catch (error) {
      if (!isSessionEndingError(error)) setDialogError(error);
    } finally {
      setBusy(false);
    }
  };

  const switchTree = (key: string) => key !== choice.key && guard(() => onSwitch(key));

  return (
    <CommandScope scope="templates">
      <div className="flex min-h-0 flex-1 flex-col" data-templates>
        <TreeHeader choice={choice} choices={choices} hasTree={!!roots} onSwitch={switchTree}
          onNew={startNew} onExport={() => void downloadExport()} onImport={chooseFile} fileInput={fileInput} onFile={(e) => void readImport(e)} />
        <div className="flex min-h-0 flex-1">
          <aside className="flex w-[340px] shrink-0 flex-col border-r border-line bg-surface">
            {(loadError && !isSessionEndingError(loadError)) || !roots ? (
              <TreeLoadState error={loadError} onRetry={() => void load(owner)} />
            ) : (
              <TemplateTree
                ref={treeRef}
                roots={roots}
                active={cursor.active}
                open={cursor.open}
                editingId={editingId}
                dirty={dirty}
                onActivate={(id) => setCursor((c) => ({ ...c, active: id }))}
                onToggle={(id) => setCursor((c) => {
                  const next = new Set(c.open);
                  if (next.has(id)) next.delete(id);
                  else next.add(id);
                  return { active: id, open: next };
                })}
                onOpen={(node) => guard(() => open(node, 'none'))}
              />
            )}
            <p className="border-t border-line px-3 py-2 text-xs text-fg-subtle">{t('templates.page.keys')}</p>
          </aside>
          <section ref={editorArea} className="min-w-0 flex-1 overflow-auto bg-bg p-4" aria-label={t('templates.editor.title')}>
            {editing && draft ? (
              <TemplateEditorPanel
                node={editing}
                draft={draft}
                editorKey={`${editing.id}-${editorReset}`}
                editable={choice.canWrite}
                dirty={dirty}
                busy={busy}
                nameRef={nameInput}
                onChange={setDraft}
                onSave={() => void save()}
                onRevert={() => open(editing, 'none')}
                onEscape={focusTree}
              />
            ) : (
              <p className="py-16 text-center text-sm text-fg-muted">{roots && roots.length === 0 ? t('templates.page.empty') : t('templates.editor.pick')}</p>
            )}
          </section>
        </div>
      </div>
      <TreeDialogs pending={pending} roots={roots} draftName={draft?.name ?? ''} busy={busy} error={dialogError}
        onName={(name) => void submitName(name)} onMove={(parentId) => void moveTo(parentId)} onRemove={() => void remove()} onImport={() => void runImport()}
        onDiscard={(then) => {
          setPending(null);
          setEdit(null);
          then();
        }}
        onCancel={closeDialog} />
    </CommandScope>
  );
}

