import { useCallback, useEffect, useMemo, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { MyOrganization } from '../../../contract/accounts';
import type { TemplateNode, TemplateUpsertInput } from '../../../contract/reports';
import { documentClash, documentSizeProblem, templateDocument, type TemplateDocument } from '../../../contract/templates';
import { CommandScope, useCommands } from '@/lib/commands';
import { saveBlob } from '@/lib/download';
import { errorText } from '@/lib/errorText';
import { isSessionEndingError } from '@/lib/http';
import { useSession } from '@/lib/session';
import { toasts } from '@/lib/toasts';
import { Alert } from '@/ui/Alert';
import { ConfirmDialog } from '@/ui/ConfirmDialog';
import { Dialog } from '@/ui/Dialog';
import { Spinner } from '@/ui/Spinner';
import { cleanReportHtml, invalidateTemplates } from '@/features/report';
import { templatesApi, type TreeOwner } from './api';
import { templatesCommands, type TemplatesCommandContext } from './commands';
import { ImportDialog, MoveDialog, NameDialog } from './dialogs';
import { TemplateEditorPanel, draftOf, sameDraft, type Draft } from './TemplateEditorPanel';
import { TemplateTree } from './TemplateTree';
import { findNode, focusAfterDelete, moveCursor, moveTargets, openTo, targetFolder, type TreeKey } from './treeModel';

/** A tree the user may open here: an organisation's (with template_upsert) or a group's shared one. */
interface TreeChoice {
  key: string;
  owner: TreeOwner;
  label: string;
  canWrite: boolean;
  kind: 'bucket' | 'group';
}

type Pending =
  | { kind: 'new'; folder: boolean; parentId: number | null }
  | { kind: 'rename'; node: TemplateNode }
  | { kind: 'move'; node: TemplateNode }
  | { kind: 'delete'; node: TemplateNode }
  | { kind: 'import'; fileName: string; document: TemplateDocument | null; problem: string | null; parentId: number | null }
  | { kind: 'discard'; then: () => void };

const ownerFields = (owner: TreeOwner) => (owner.bucketId !== undefined ? { bucketId: owner.bucketId } : { groupId: owner.groupId });

/**
 * Template management (/templates): the tree of one organisation, or of the group's shared tree, at the left
 * (↑/↓ move, →/← open and close, Enter edit, F2 rename, N new template, Shift+N new folder, Delete, M move), the
 * chosen template's name, modality, body part, findings and conclusion at the right (Ctrl+S saves; unsaved changes
 * are asked about before anything replaces them). Export downloads the tree as JSON; import adds a document's
 * folders and templates in one go.
 */
export default function TemplatesPage() {
  const { t } = useTranslation();
  const { groups, can } = useSession();
  const [orgs, setOrgs] = useState<MyOrganization[] | null>(null);
  const [orgError, setOrgError] = useState<unknown>(null);

  useEffect(() => {
    let live = true;
    templatesApi.organisations().then((list) => live && setOrgs(list), (error: unknown) => live && setOrgError(error));
    return () => {
      live = false;
    };
  }, []);

  const choices = useMemo<TreeChoice[]>(() => {
    const own = (orgs ?? []).filter((o) => can('template_upsert', o.id))
      .map((o): TreeChoice => ({ key: `b${o.id}`, owner: { bucketId: o.id }, label: o.name, canWrite: true, kind: 'bucket' }));
    const shared = groups.filter((g) => g.isGroupKb && (g.accessLevel === 1 || (orgs ?? []).some((o) => o.groupId === g.id && can('template_upsert', o.id))))
      .map((g): TreeChoice => ({ key: `g${g.id}`, owner: { groupId: g.id }, label: g.displayName, canWrite: g.accessLevel === 1, kind: 'group' }));
    return [...own, ...shared];
  }, [orgs, groups, can]);

  if (orgError && !isSessionEndingError(orgError)) return <div className="p-6"><Alert>{errorText(t, orgError)}</Alert></div>;
  if (!orgs) return <div className="flex flex-1 items-center justify-center py-16"><Spinner label={t('common.loading')} /></div>;
  if (choices.length === 0) return <div className="p-6"><Alert>{t('templates.page.noRight')}</Alert></div>;
  return <TemplatesScreen choices={choices} />;
}

function TemplatesScreen({ choices }: { choices: TreeChoice[] }) {
  const [choiceKey, setChoiceKey] = useState(choices[0]!.key);
  const choice = choices.find((c) => c.key === choiceKey) ?? choices[0]!;
  // One workspace per tree (keyed): switching trees starts from a fresh state; the session's periodic refresh,
  // which rebuilds `choices`, does not.
  return <TreeWorkspace key={choice.key} choice={choice} choices={choices} onSwitch={setChoiceKey} />;
}

function TreeWorkspace({ choice, choices, onSwitch }: { choice: TreeChoice; choices: TreeChoice[]; onSwitch: (key: string) => void }) {
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
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

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

  /** The full body of an upsert for `node`, with `change` over it (the server writes every field it is given). */
  const bodyFor = (node: TemplateNode, change: Partial<TemplateUpsertInput>): TemplateUpsertInput => ({
    id: node.id, ...ownerFields(owner), parentId: node.parentId, name: node.name, isFolder: node.isFolder,
    modality: node.modality, bodyPart: node.bodyPart, finding: node.finding, diagnosis: node.diagnosis, sort: node.sort, ...change,
  });

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
    let problem: string | null = null;
    let document: TemplateDocument | null = null;
    try {
      const raw: unknown = JSON.parse(await file.text());
      const size = documentSizeProblem({ items: (raw as { items?: unknown } | null)?.items });
      if (size) problem = `${size.path}: ${size.message}`;
      else {
        const parsed = templateDocument.safeParse(raw);
        if (!parsed.success) {
          const issue = parsed.error.issues[0]!;
          problem = `${['document', ...issue.path].join('.')}: ${issue.message}`;
        } else {
          const twin = documentClash(parsed.data.items);
          if (twin) problem = `${twin.path}: ${t('templates.import.twin', { name: twin.name })}`;
          else document = parsed.data;
        }
      }
    } catch {
      problem = t('templates.import.notJson');
    }
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
  const orgChoices = choices.filter((c) => c.kind === 'bucket');
  const groupChoices = choices.filter((c) => c.kind === 'group');
  const pathOf = (parentId: number | null) => {
    if (parentId === null || !roots) return t('templates.move.top');
    return findNode(roots, parentId)?.name ?? t('templates.move.top');
  };

  return (
    <CommandScope scope="templates">
      <div className="flex min-h-0 flex-1 flex-col" data-templates>
        <header className="flex flex-wrap items-center gap-3 border-b border-line bg-surface px-4 py-2">
          <h1 className="text-base font-semibold">{t('templates.page.title')}</h1>
          {/* Several organisations are one list box beside the tabs, never inside the tab list: a tab list holds tabs only
              (axe's aria-required-children), and none is drawn when there is no tab. */}
          {orgChoices.length > 1 && (
            <label className="flex items-center gap-2 text-sm">
              <span className="text-fg-muted">{t('templates.page.organisation')}</span>
              <select
                className="input w-auto"
                value={choice.kind === 'bucket' ? choice.key : ''}
                onChange={(e) => e.target.value && switchTree(e.target.value)}
                data-testid="templates-organisation"
              >
                {choice.kind !== 'bucket' && <option value="">—</option>}
                {orgChoices.map((c) => <option key={c.key} value={c.key}>{c.label}</option>)}
              </select>
            </label>
          )}
          {(orgChoices.length === 1 || groupChoices.length > 0) && (
            <div role="tablist" aria-label={t('templates.page.trees')} className="flex items-center gap-1">
              {orgChoices.length === 1 && (
                <button type="button" role="tab" aria-selected={choice.kind === 'bucket'} className={`btn ${choice.kind === 'bucket' ? 'btn-primary' : ''}`} onClick={() => switchTree(orgChoices[0]!.key)}>
                  {orgChoices[0]!.label}
                </button>
              )}
              {groupChoices.map((c) => (
                <button key={c.key} type="button" role="tab" aria-selected={choice.key === c.key} className={`btn ${choice.key === c.key ? 'btn-primary' : ''}`} onClick={() => switchTree(c.key)} data-testid="templates-group-tab">
                  {t('templates.page.groupTab', { name: c.label })}
                </button>
              ))}
            </div>
          )}
          {!choice.canWrite && <span className="text-xs text-fg-muted">{t('templates.page.readOnly')}</span>}
          <div className="ml-auto flex items-center gap-2">
            <button type="button" className="btn" disabled={!roots || !choice.canWrite} onClick={() => startNew(false)}>{t('templates.actions.newTemplate')}</button>
            <button type="button" className="btn" disabled={!roots || !choice.canWrite} onClick={() => startNew(true)}>{t('templates.actions.newFolder')}</button>
            <button type="button" className="btn" disabled={!roots} onClick={() => void downloadExport()}>{t('templates.actions.export')}</button>
            <button type="button" className="btn" disabled={!roots || !choice.canWrite} onClick={chooseFile}>{t('templates.actions.import')}</button>
            <input ref={fileInput} type="file" accept="application/json,.json" className="hidden" onChange={(e) => void readImport(e)} data-testid="templates-import-file" />
          </div>
        </header>
        <div className="flex min-h-0 flex-1">
          <aside className="flex w-[340px] shrink-0 flex-col border-r border-line bg-surface">
            {loadError && !isSessionEndingError(loadError) ? (
              <div className="flex flex-col gap-2 p-3">
                <Alert>{errorText(t, loadError)}</Alert>
                <button type="button" className="btn self-start" onClick={() => void load(owner)}>{t('common.retry')}</button>
              </div>
            ) : !roots ? (
              <div className="flex flex-1 items-center justify-center"><Spinner label={t('common.loading')} /></div>
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
      <NameDialog
        open={pending?.kind === 'new' || pending?.kind === 'rename'}
        title={pending?.kind === 'rename' ? t('templates.dialogs.rename') : pending?.kind === 'new' && pending.folder ? t('templates.dialogs.newFolder') : t('templates.dialogs.newTemplate')}
        initial={pending?.kind === 'rename' ? pending.node.name : ''}
        busy={busy}
        error={dialogError}
        onSubmit={(name) => void submitName(name)}
        onCancel={closeDialog}
      />
      <MoveDialog
        open={pending?.kind === 'move'}
        name={pending?.kind === 'move' ? pending.node.name : ''}
        targets={pending?.kind === 'move' && roots ? moveTargets(roots, pending.node.id) : []}
        busy={busy}
        error={dialogError}
        onPick={(parentId) => void moveTo(parentId)}
        onCancel={closeDialog}
      />
      <ConfirmDialog
        open={pending?.kind === 'delete'}
        title={t(pending?.kind === 'delete' && pending.node.isFolder ? 'templates.delete.folderTitle' : 'templates.delete.title')}
        confirmLabel={t('templates.delete.confirm')}
        busy={busy}
        onConfirm={() => void remove()}
        onCancel={closeDialog}
        testId="template-delete-ok"
      >
        <p>{pending?.kind === 'delete' ? t(pending.node.isFolder ? 'templates.delete.folderBody' : 'templates.delete.body', { name: pending.node.name }) : null}</p>
        {dialogError !== null && dialogError !== undefined && <div className="mt-2"><Alert>{errorText(t, dialogError)}</Alert></div>}
      </ConfirmDialog>
      <ImportDialog
        open={pending?.kind === 'import'}
        fileName={pending?.kind === 'import' ? pending.fileName : ''}
        document={pending?.kind === 'import' ? pending.document : null}
        problem={pending?.kind === 'import' ? pending.problem : null}
        where={pending?.kind === 'import' ? pathOf(pending.parentId) : ''}
        busy={busy}
        error={dialogError}
        onConfirm={() => void runImport()}
        onCancel={closeDialog}
      />
      <Dialog open={pending?.kind === 'discard'} title={t('templates.discard.title')} onCancel={closeDialog} width={420}>
        {pending?.kind === 'discard' && (
          <DiscardBody
            name={draft?.name ?? ''}
            onDiscard={() => {
              const then = pending.then;
              setPending(null);
              setEdit(null);
              then();
            }}
            onCancel={closeDialog}
          />
        )}
      </Dialog>
    </CommandScope>
  );
}

function DiscardBody({ name, onDiscard, onCancel }: { name: string; onDiscard: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const frame = requestAnimationFrame(() => keep.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, []);
  return (
    <div className="flex flex-col gap-4 text-sm">
      <p>{t('templates.discard.body', { name })}</p>
      <div className="flex justify-end gap-2">
        <button ref={keep} type="button" className="btn" onClick={onCancel}>{t('templates.discard.keep')}</button>
        <button type="button" className="btn border-danger bg-danger text-surface hover:bg-danger/90" onClick={onDiscard} data-testid="templates-discard">{t('templates.discard.confirm')}</button>
      </div>
    </div>
  );
}
