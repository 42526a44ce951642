import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { applyOrder, descendantIds, neighbourPreId, resortPlan, type KbItem, type KbPage as KbTreePage } from '../../../contract/kb';
import { CommandScope, useCommands } from '@/lib/commands';
import { errorText } from '@/lib/errorText';
import { isSessionEndingError, onSessionResumed } from '@/lib/http';
import { navigate, useSession } from '@/lib/session';
import { toasts } from '@/lib/toasts';
import { useLoad } from '@/lib/useLoad';
import { kbApi } from './api';
import { kbCommands, type KbCommandContext } from './commands';
import { KbDialogs, type DialogState } from './KbDialogs';
import { ItemPane } from './ItemPane';
import { KbTree } from './KbTree';
import { ancestorIds, parentForNew, treeKey, visibleRows, type TreeKey } from './model';
import { kbPath } from './paths';
import { canWrite as canWriteIn, forgetTree } from './store';

import { KbHeader } from './KbHeader';
import { Loading, Problem } from './KbStates';

/** One organisation's knowledge base: its tree, the current item, the writes and their dialogs. */
export function KbScreen({ bucketId, orgs, initialItem }: { bucketId: number; orgs: { id: number; name: string }[]; initialItem: number | null }) {
  const { t } = useTranslation();
  const { permissions } = useSession();
  const writable = canWriteIn(permissions, bucketId);
  const tree = useLoad(`kb:tree:${bucketId}`, (signal) => kbApi.query(bucketId, { signal }));
  useEffect(() => onSessionResumed(tree.reload), [tree.reload]);
  const items = useMemo(() => tree.data?.items ?? [], [tree.data]);
  const putItems = tree.put;
  const setItems = useCallback((update: (items: KbItem[]) => KbItem[]) => putItems((page) => {
    if (!page) return page;
    const next = update(page.items);
    return { items: next, total: next.length } satisfies KbTreePage;
  }), [putItems]);

  const [current, setCurrent] = useState<number | null>(initialItem);
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const [renaming, setRenaming] = useState<number | null>(null);
  const [dialog, setDialog] = useState<DialogState>(null);
  const [busy, setBusy] = useState(false);
  const [saving, setSaving] = useState(false);
  const drafts = useRef(new Map<number, string>());
  const [dirty, setDirty] = useState<ReadonlySet<number>>(new Set());
  const treeRef = useRef<HTMLUListElement>(null);
  const paneRef = useRef<HTMLDivElement>(null);
  const writes = useRef<Promise<void>>(Promise.resolve());
  const treeLabel = useId();

  // The palette opens another item on this same screen: the address changes, the screen follows (set while rendering,
  // as React advises for state that follows a prop).
  const [addressItem, setAddressItem] = useState(initialItem);
  if (initialItem !== addressItem) {
    setAddressItem(initialItem);
    if (initialItem !== null) setCurrent(initialItem);
  }
  useEffect(() => {
    navigate(kbPath(bucketId, current), { replace: true });
  }, [bucketId, current]);

  // The current item always shows: the folders above it are open (a reload, or a palette result, lands inside).
  const openNow = useMemo(() => (current === null ? open : new Set([...open, ...ancestorIds(items, current)])), [items, open, current]);
  const rows = useMemo(() => visibleRows(items, openNow), [items, openNow]);
  const currentItem = items.find((i) => i.id === current) ?? null;

  const failed = useCallback((error: unknown) => {
    if (!isSessionEndingError(error)) toasts.show({ message: errorText(t, error), kind: 'error' });
  }, [t]);
  const changed = () => forgetTree(bucketId);

  // The row to focus once the render that goes with it is on the screen: after a dialog has closed (a modal dialog
  // makes the tree inert until then) and the moved row stands in its new place. A frame was not enough: React may
  // commit a promise's updates after the next frame.
  const [focusRequest, setFocusRequest] = useState<{ id: number | null } | null>(null);
  const focusRow = (id: number | null) => setFocusRequest({ id });
  useEffect(() => {
    if (!focusRequest) return;
    const { id } = focusRequest;
    const row = id === null ? null : treeRef.current?.querySelector<HTMLElement>(`[data-kb-id="${id}"]`);
    (row ?? treeRef.current?.querySelector<HTMLElement>('[role="treeitem"]'))?.focus();
  }, [focusRequest]);
  const focusEditor = () => requestAnimationFrame(() => paneRef.current?.querySelector<HTMLElement>('.report-editor')?.focus());

  const saveText = async (id: number) => {
    const html = drafts.current.get(id);
    if (html === undefined) return;
    setSaving(true);
    try {
      const saved = await kbApi.patch(id, { content: html });
      if (drafts.current.get(id) === html) {
        drafts.current.delete(id);
        setDirty((d) => new Set([...d].filter((x) => x !== id)));
      }
      setItems((list) => list.map((i) => (i.id === id ? { ...i, content: saved.content, updated: saved.updated } : i)));
      changed();
    } catch (error) {
      failed(error);
    } finally {
      setSaving(false);
    }
  };
  const select = (id: number | null) => {
    // Leaving a text with unsaved changes saves them: nothing typed is lost by walking the tree.
    if (current !== null && current !== id && drafts.current.has(current)) void saveText(current);
    // The folders that were open only because they hold the item left behind stay open (← to the parent keeps it open).
    if (current !== null && current !== id) {
      const above = ancestorIds(items, current);
      if (above.some((a) => !open.has(a))) setOpen((o) => new Set([...o, ...above]));
    }
    setCurrent(id);
  };
  const toggle = (id: number) => {
    if (openNow.has(id)) {
      // Closing a folder that holds the current item makes the folder current, so the focus stays visible.
      if (current !== null && ancestorIds(items, current).includes(id)) select(id);
      setOpen((o) => new Set([...o].filter((x) => x !== id)));
    } else {
      setOpen((o) => new Set([...o, id]));
    }
  };

  /** Shows the new order at once, then sends it after the writes before it; a refusal reads the tree again. */
  const place = (id: number, preId: number | null) => {
    const plan = resortPlan(items, id, preId);
    if (!plan.ok) return;
    setItems((list) => applyOrder(list, plan.order));
    writes.current = writes.current.then(() => kbApi.resort(id, preId)).then(changed, (error: unknown) => {
      failed(error);
      tree.reload();
    });
  };

  const create = async (input: { type: 'text' | 'folder'; name: string } | { type: 'template'; referenceId: number }) => {
    const parentId = parentForNew(items, current);
    setBusy(true);
    try {
      const item = await kbApi.create(input.type === 'template'
        ? { bucketId, parentId, type: 'template', referenceId: input.referenceId }
        : input.type === 'text' ? { bucketId, parentId, type: 'text', name: input.name, content: '' } : { bucketId, parentId, type: 'folder', name: input.name });
      setItems((list) => [...list, item]);
      if (parentId !== null) setOpen((o) => new Set([...o, parentId]));
      select(item.id);
      setDialog(null);
      changed();
      if (item.type === 'text') focusEditor(); else focusRow(item.id);
    } catch (error) {
      failed(error);
    } finally {
      setBusy(false);
    }
  };

  const rename = async (id: number, name: string | null) => {
    setRenaming(null);
    focusRow(id);
    if (name === null) return;
    setItems((list) => list.map((i) => (i.id === id ? { ...i, name } : i)));
    try {
      const saved = await kbApi.patch(id, { name });
      setItems((list) => list.map((i) => (i.id === id ? { ...i, name: saved.name } : i)));
      changed();
    } catch (error) {
      failed(error);
      tree.reload();
    }
  };

  const remove = async (item: KbItem) => {
    setBusy(true);
    try {
      const result = await kbApi.remove(item.id);
      const gone = new Set(result.ids);
      // The focus goes to the row above (or the parent), so the keyboard stays in the tree.
      const at = rows.findIndex((r) => r.item.id === item.id);
      const next = rows.slice(0, Math.max(0, at)).reverse().find((r) => !gone.has(r.item.id))?.item.id ?? rows.find((r) => !gone.has(r.item.id))?.item.id ?? null;
      for (const id of gone) drafts.current.delete(id);
      setItems((list) => list.filter((i) => !gone.has(i.id)));
      setCurrent(next);
      setDialog(null);
      toasts.show({ message: t('kb.toast.deleted', { count: result.removed }), kind: 'success', duration: 2500 });
      changed();
      focusRow(next);
    } catch (error) {
      failed(error);
      tree.reload();
    } finally {
      setBusy(false);
    }
  };

  /** Into another folder (M): it goes last there; the folder opens so the item stays in sight and keeps the focus. */
  const moveInto = async (item: KbItem, parentId: number | null) => {
    setBusy(true);
    try {
      const saved = await kbApi.patch(item.id, { parentId });
      setDialog(null);
      if (parentId !== null) setOpen((o) => new Set([...o, parentId]));
      setItems((list) => list.map((i) => (i.id === item.id ? { ...i, parentId: saved.parentId, sort: saved.sort } : i)));
      changed();
      tree.reload();
      focusRow(item.id);
    } catch (error) {
      failed(error);
      tree.reload();
    } finally {
      setBusy(false);
    }
  };

  const treeFocused = () => {
    const active = document.activeElement;
    return Boolean(treeRef.current && active && treeRef.current.contains(active) && active.getAttribute('role') === 'treeitem');
  };
  const context: KbCommandContext = {
    treeFocused,
    hasFocused: currentItem !== null,
    canWrite: writable && tree.data !== null && dialog === null && renaming === null,
    canSave: writable && current !== null && dirty.has(current) && !saving,
    key: (key: TreeKey) => {
      const move = treeKey(rows, openNow, current, key);
      if (move.open !== undefined) setOpen((o) => new Set([...o, move.open!]));
      if (move.close !== undefined) toggle(move.close);
      select(move.focus);
      focusRow(move.focus);
    },
    openItem: () => {
      if (!currentItem) return;
      if (currentItem.type === 'folder') toggle(currentItem.id);
      else if (currentItem.type === 'text' && writable) focusEditor();
    },
    rename: () => current !== null && setRenaming(current),
    remove: () => currentItem && setDialog({ kind: 'delete', item: currentItem, below: descendantIds(items, currentItem.id).length }),
    move: (step) => {
      if (current === null) return;
      const to = neighbourPreId(items, current, step);
      if (!to) return;
      place(current, to.preId);
      focusRow(current);
    },
    moveTo: () => currentItem && setDialog({ kind: 'move', item: currentItem }),
    newText: () => setDialog({ kind: 'text' }),
    newFolder: () => setDialog({ kind: 'folder' }),
    linkTemplate: () => setDialog({ kind: 'template' }),
    save: () => current !== null && void saveText(current),
  };
  useCommands(kbCommands, context);

  const onDraft = useCallback((id: number, html: string) => {
    drafts.current.set(id, html);
    setDirty((d) => (d.has(id) ? d : new Set([...d, id])));
  }, []);

  return (
    <CommandScope scope="kb">
      <div className="flex min-h-0 flex-1 flex-col">
        <KbHeader titleId={treeLabel} orgs={orgs} bucketId={bucketId} writable={writable} hasCurrent={!!currentItem} actions={context} />
        {tree.error && !isSessionEndingError(tree.error) ? (
          <Problem text={errorText(t, tree.error)} onRetry={tree.reload} />
        ) : !tree.data ? (
          <Loading />
        ) : (
          <div className="flex min-h-0 flex-1">
            <nav className="w-72 shrink-0 overflow-y-auto border-r border-line bg-surface" aria-labelledby={treeLabel}>
              <KbTree
                rows={rows}
                open={openNow}
                current={current}
                renaming={renaming}
                canWrite={writable}
                treeRef={treeRef}
                label={t('kb.tree.label')}
                onSelect={(id) => select(id)}
                onToggle={toggle}
                onRename={(id, name) => void rename(id, name)}
                onDrop={place}
                onRefused={() => toasts.show({ message: t('kb.tree.dropRefused'), kind: 'warning', duration: 4000 })}
              />
            </nav>
            <div ref={paneRef} className="flex min-h-0 min-w-0 flex-1 flex-col bg-bg">
              <ItemPane
                item={currentItem}
                items={items}
                canWrite={writable}
                dirty={current !== null && dirty.has(current)}
                saving={saving}
                onChange={onDraft}
                onSave={() => current !== null && void saveText(current)}
                onEscape={() => focusRow(current)}
              />
            </div>
          </div>
        )}
      </div>
      <KbDialogs dialog={dialog} bucketId={bucketId} items={items} busy={busy}
        onCreate={(input) => void create(input)}
        onMove={(item, parentId) => void moveInto(item, parentId)}
        onRemove={(item) => void remove(item)}
        onCancel={() => { setDialog(null); focusRow(current); }} />
    </CommandScope>
  );
}

