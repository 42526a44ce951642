import { useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { KB_NAME_MAX, descendantIds, type KbItem } from '../../../contract/kb';
import type { TemplateNode } from '../../../contract/reports';
import { errorText } from '@/lib/errorText';
import { Dialog } from '@/ui/Dialog';
import { TextField } from '@/ui/TextField';
import { kbApi } from './api';

/** The name of a new text or folder: Enter creates, Esc cancels. */
export function NameDialog({ title, busy, onSubmit, onCancel }: { title: string; busy: boolean; onSubmit: (name: string) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [touched, setTouched] = useState(false);
  const empty = name.trim() === '';
  return (
    <Dialog open title={title} onCancel={busy ? undefined : onCancel} width={400}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setTouched(true);
          if (!empty && !busy) onSubmit(name.trim());
        }}
      >
        <TextField
          label={t('kb.dialogs.name')}
          value={name}
          maxLength={KB_NAME_MAX}
          autoFocus
          onChange={(e) => setName(e.target.value)}
          error={touched && empty ? t('kb.dialogs.nameRequired') : undefined}
        />
        <div className="mt-2 flex justify-end gap-2">
          <button type="button" className="btn" onClick={onCancel} disabled={busy}>{t('common.cancel')}</button>
          <button type="submit" className="btn btn-primary" disabled={busy}>{t('kb.dialogs.create')}</button>
        </div>
      </form>
    </Dialog>
  );
}

interface Pick {
  id: number;
  name: string;
  path: string;
}

function flatten(nodes: readonly TemplateNode[], path: string[] = []): Pick[] {
  return nodes.flatMap((n) => (n.isFolder ? flatten(n.children, [...path, n.name]) : [{ id: n.id, name: n.name, path: path.join(' / ') }]));
}

/** Picks one of the organisation's writing templates to link: type to narrow, ↑/↓ to choose, Enter to link. */
export function TemplatePicker({ bucketId, busy, onPick, onCancel }: { bucketId: number; busy: boolean; onPick: (templateId: number) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const [all, setAll] = useState<Pick[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    kbApi.templates(bucketId, { signal: controller.signal }).then(
      (page) => setAll(flatten(page.items)),
      (err: unknown) => !controller.signal.aborted && setError(errorText(t, err)),
    );
    return () => controller.abort();
  }, [bucketId, t]);
  return (
    <PickDialog listId={`kb-template-list-${bucketId}`} title={t('kb.dialogs.linkTitle')} searchLabel={t('kb.dialogs.searchTemplates')}
      listLabel={t('kb.dialogs.templates')} emptyText={t('kb.dialogs.noTemplates')} options={all} error={error} busy={busy} onPick={onPick} onCancel={onCancel} />
  );
}

/** The folders an item may move into: the top level and every folder but the item itself and those below it. */
export function folderChoices(items: readonly KbItem[], moving: KbItem, topLevel: string): Pick[] {
  const byId = new Map(items.map((i) => [i.id, i]));
  const below = new Set([moving.id, ...descendantIds(items, moving.id)]);
  const pathOf = (item: KbItem): string[] => {
    const names: string[] = [];
    for (let at = item.parentId === null ? undefined : byId.get(item.parentId); at; at = at.parentId === null ? undefined : byId.get(at.parentId)) names.unshift(at.name);
    return names;
  };
  const folders = items.filter((i) => i.type === 'folder' && !below.has(i.id) && i.id !== moving.parentId)
    .map((f) => ({ id: f.id, name: f.name, path: pathOf(f).join(' / ') }));
  return moving.parentId === null ? folders : [{ id: 0, name: topLevel, path: '' }, ...folders];
}

/** Moves an item into another folder (M): type to narrow, ↑/↓ to choose, Enter to move. Id 0 is the top level. */
export function FolderPicker({ items, moving, busy, onPick, onCancel }: { items: readonly KbItem[]; moving: KbItem; busy: boolean; onPick: (parentId: number | null) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const options = useMemo(() => folderChoices(items, moving, t('kb.dialogs.topLevel')), [items, moving, t]);
  return (
    <PickDialog listId={`kb-folder-list-${moving.id}`} title={t('kb.dialogs.moveTitle', { name: moving.name })} searchLabel={t('kb.dialogs.searchFolders')}
      listLabel={t('kb.dialogs.folders')} emptyText={t('kb.dialogs.noFolders')} options={options} error={null} busy={busy}
      onPick={(id) => onPick(id === 0 ? null : id)} onCancel={onCancel} />
  );
}

interface PickDialogProps {
  listId: string;
  title: string;
  searchLabel: string;
  listLabel: string;
  emptyText: string;
  /** null while loading. */
  options: readonly Pick[] | null;
  error: string | null;
  busy: boolean;
  onPick: (id: number) => void;
  onCancel: () => void;
}

/** A dialog that picks one of a list by typing and the arrows (a combobox over a listbox). */
function PickDialog({ listId, title, searchLabel, listLabel, emptyText, options, error, busy, onPick, onCancel }: PickDialogProps) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState('');
  const [active, setActive] = useState(0);
  const shown = useMemo(() => {
    const term = filter.trim().toLocaleLowerCase();
    return (options ?? []).filter((p) => !term || p.name.toLocaleLowerCase().includes(term) || p.path.toLocaleLowerCase().includes(term)).slice(0, 50);
  }, [options, filter]);
  const at = Math.min(active, Math.max(0, shown.length - 1));
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setActive(Math.max(0, Math.min(shown.length - 1, at + (event.key === 'ArrowDown' ? 1 : -1))));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const pick = shown[at];
      if (pick && !busy) onPick(pick.id);
    }
  };
  return (
    <Dialog open title={title} onCancel={busy ? undefined : onCancel} width={480}>
      <input
        className="input w-full"
        role="combobox"
        aria-expanded="true"
        aria-controls={listId}
        aria-activedescendant={shown[at] ? `${listId}-${shown[at].id}` : undefined}
        aria-label={searchLabel}
        placeholder={searchLabel}
        value={filter}
        autoFocus
        onChange={(e) => { setFilter(e.target.value); setActive(0); }}
        onKeyDown={onKeyDown}
      />
      <ul id={listId} role="listbox" aria-label={listLabel} className="mt-2 h-72 overflow-y-auto rounded-md border border-line">
        {error && <li className="px-3 py-2 text-danger">{error}</li>}
        {!error && options === null && <li className="px-3 py-2 text-fg-muted">{t('kb.pane.loading')}</li>}
        {options !== null && shown.length === 0 && <li className="px-3 py-2 text-fg-muted">{emptyText}</li>}
        {shown.map((p, i) => (
          <li
            key={p.id}
            id={`${listId}-${p.id}`}
            role="option"
            aria-selected={i === at}
            onMouseEnter={() => setActive(i)}
            onClick={() => !busy && onPick(p.id)}
            className={`flex cursor-default items-baseline justify-between gap-3 px-3 py-1 text-[13px] ${i === at ? 'bg-accent-soft' : ''}`}
          >
            <span className="truncate">{p.name}</span>
            <span className="shrink-0 text-[11px] text-fg-muted">{p.path}</span>
          </li>
        ))}
      </ul>
      <div className="mt-3 flex justify-end">
        <button type="button" className="btn" onClick={onCancel} disabled={busy}>{t('common.cancel')}</button>
      </div>
    </Dialog>
  );
}
