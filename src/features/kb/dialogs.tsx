import { useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { KB_NAME_MAX } from '../../../contract/kb';
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
  const [filter, setFilter] = useState('');
  const [active, setActive] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    kbApi.templates(bucketId, { signal: controller.signal }).then(
      (page) => setAll(flatten(page.items)),
      (err: unknown) => !controller.signal.aborted && setError(errorText(t, err)),
    );
    return () => controller.abort();
  }, [bucketId, t]);
  const shown = useMemo(() => {
    const term = filter.trim().toLocaleLowerCase();
    return (all ?? []).filter((p) => !term || p.name.toLocaleLowerCase().includes(term) || p.path.toLocaleLowerCase().includes(term)).slice(0, 50);
  }, [all, filter]);
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
  const listId = `kb-template-list-${bucketId}`;
  return (
    <Dialog open title={t('kb.dialogs.linkTitle')} onCancel={busy ? undefined : onCancel} width={480}>
      <input
        className="input w-full"
        role="combobox"
        aria-expanded="true"
        aria-controls={listId}
        aria-activedescendant={shown[at] ? `${listId}-${shown[at].id}` : undefined}
        aria-label={t('kb.dialogs.searchTemplates')}
        placeholder={t('kb.dialogs.searchTemplates')}
        value={filter}
        autoFocus
        onChange={(e) => { setFilter(e.target.value); setActive(0); }}
        onKeyDown={onKeyDown}
      />
      <ul id={listId} role="listbox" aria-label={t('kb.dialogs.templates')} className="mt-2 h-72 overflow-y-auto rounded-md border border-line">
        {error && <li className="px-3 py-2 text-danger">{error}</li>}
        {!error && all === null && <li className="px-3 py-2 text-fg-muted">{t('kb.pane.loading')}</li>}
        {all !== null && shown.length === 0 && <li className="px-3 py-2 text-fg-muted">{t('kb.dialogs.noTemplates')}</li>}
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
