import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { documentCounts, type TemplateDocument } from '../../../contract/templates';
import { errorText } from '@/lib/errorText';
import { Alert } from '@/ui/Alert';
import { Dialog } from '@/ui/Dialog';

/** Asks a name: a new template, a new folder, or a rename (Enter saves, Esc cancels). */
export function NameDialog({ open, title, initial, busy, error, onSubmit, onCancel }: {
  open: boolean; title: string; initial: string; busy: boolean; error: unknown;
  onSubmit: (name: string) => void; onCancel: () => void;
}) {
  return (
    <Dialog open={open} title={title} onCancel={busy ? undefined : onCancel} width={420}>
      {open && <NameBody initial={initial} busy={busy} error={error} onSubmit={onSubmit} onCancel={onCancel} />}
    </Dialog>
  );
}

function NameBody({ initial, busy, error, onSubmit, onCancel }: { initial: string; busy: boolean; error: unknown; onSubmit: (name: string) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const [name, setName] = useState(initial);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const frame = requestAnimationFrame(() => input.current?.select());
    return () => cancelAnimationFrame(frame);
  }, []);
  const trimmed = name.trim();
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (!busy && trimmed) onSubmit(trimmed);
      }}
      className="flex flex-col gap-3"
    >
      <label htmlFor={id} className="text-xs font-medium text-fg-muted">{t('templates.fields.name')}</label>
      <input ref={input} id={id} className="input" value={name} maxLength={128} autoComplete="off" onChange={(e) => setName(e.target.value)} data-testid="template-name-input" />
      {error !== null && error !== undefined && <Alert>{errorText(t, error)}</Alert>}
      <div className="flex justify-end gap-2">
        <button type="button" className="btn" onClick={onCancel} disabled={busy}>{t('common.cancel')}</button>
        <button type="submit" className="btn btn-primary" disabled={busy || !trimmed}>{t('templates.actions.ok')}</button>
      </div>
    </form>
  );
}

/** "Move to…": the folders a node may go into, chosen with ↑/↓ and Enter. */
export function MoveDialog({ open, name, targets, busy, error, onPick, onCancel }: {
  open: boolean; name: string; targets: { id: number | null; path: string[] }[]; busy: boolean; error: unknown;
  onPick: (parentId: number | null) => void; onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} title={t('templates.move.title', { name })} onCancel={busy ? undefined : onCancel} width={460}>
      {open && <MoveBody targets={targets} busy={busy} error={error} onPick={onPick} onCancel={onCancel} />}
    </Dialog>
  );
}

function MoveBody({ targets, busy, error, onPick, onCancel }: { targets: { id: number | null; path: string[] }[]; busy: boolean; error: unknown; onPick: (parentId: number | null) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const listId = useId();
  const [active, setActive] = useState(0);
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    const frame = requestAnimationFrame(() => list.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, []);
  useEffect(() => {
    list.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [active]);
  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => Math.max(0, Math.min(targets.length - 1, i + step)));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const target = targets[active];
      if (target && !busy) onPick(target.id);
    }
  };
  return (
    <div className="flex flex-col gap-3">
      {targets.length === 0 ? (
        <p className="text-sm text-fg-muted">{t('templates.move.none')}</p>
      ) : (
        <ul
          ref={list}
          id={listId}
          role="listbox"
          tabIndex={0}
          aria-label={t('templates.move.list')}
          aria-activedescendant={`${listId}-${active}`}
          onKeyDown={onKeyDown}
          className="max-h-72 overflow-auto rounded-md border border-line bg-surface py-1 outline-none focus-visible:ring-2 focus-visible:ring-accent"
        >
          {targets.map((target, index) => (
            <li
              key={target.id ?? 'top'}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              className={`cursor-pointer px-3 py-1 text-sm ${index === active ? 'bg-accent-soft text-fg' : 'text-fg hover:bg-sunken'}`}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => !busy && onPick(target.id)}
            >
              {target.id === null ? t('templates.move.top') : target.path.join(' › ')}
            </li>
          ))}
        </ul>
      )}
      {error !== null && error !== undefined && <Alert>{errorText(t, error)}</Alert>}
      <p className="text-xs text-fg-muted">{t('templates.move.keys')}</p>
      <div className="flex justify-end">
        <button type="button" className="btn" onClick={onCancel} disabled={busy}>{t('common.cancel')}</button>
      </div>
    </div>
  );
}

/** What an import will add (counts and the top-level names) and where; the server's refusal stays in the dialog. */
export function ImportDialog({ open, fileName, document, problem, where, busy, error, onConfirm, onCancel }: {
  open: boolean; fileName: string; document: TemplateDocument | null; problem: string | null; where: string;
  busy: boolean; error: unknown; onConfirm: () => void; onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} title={t('templates.import.title')} onCancel={busy ? undefined : onCancel} width={520}>
      {open && <ImportBody fileName={fileName} document={document} problem={problem} where={where} busy={busy} error={error} onConfirm={onConfirm} onCancel={onCancel} />}
    </Dialog>
  );
}

function ImportBody({ fileName, document, problem, where, busy, error, onConfirm, onCancel }: {
  fileName: string; document: TemplateDocument | null; problem: string | null; where: string;
  busy: boolean; error: unknown; onConfirm: () => void; onCancel: () => void;
}) {
  const { t } = useTranslation();
  const counts = document ? documentCounts(document.items) : null;
  const confirm = useRef<HTMLButtonElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  // The native dialog focuses its first button when it opens, after this effect: Enter imports a good document.
  const good = document !== null;
  useEffect(() => {
    const frame = requestAnimationFrame(() => (good ? confirm : cancel).current?.focus());
    return () => cancelAnimationFrame(frame);
  }, [good]);
  return (
    <form
      className="flex flex-col gap-3 text-sm"
      onSubmit={(event) => {
        event.preventDefault();
        if (!busy && document) onConfirm();
      }}
    >
      <p className="text-fg-muted">{t('templates.import.file', { name: fileName })}</p>
      {problem && <Alert>{t('templates.import.invalid', { problem })}</Alert>}
      {document && counts && (
        <>
          <p data-testid="import-summary">{t('templates.import.summary', { folders: counts.folders, templates: counts.templates, where })}</p>
          <ul className="max-h-48 overflow-auto rounded-md border border-line bg-surface px-3 py-2">
            {document.items.slice(0, 50).map((item, i) => (
              <li key={i} className="truncate">
                <span aria-hidden="true" className="mr-1 text-fg-subtle">{item.folder ? '▸' : '·'}</span>
                {item.name}
                {item.folder && <span className="ml-2 text-xs text-fg-subtle">{t('templates.import.inside', { count: item.children?.length ?? 0 })}</span>}
              </li>
            ))}
            {document.items.length > 50 && <li className="text-fg-subtle">{t('templates.import.more', { count: document.items.length - 50 })}</li>}
          </ul>
        </>
      )}
      {error !== null && error !== undefined && <Alert>{errorText(t, error)}{importDetail(error)}</Alert>}
      <div className="flex justify-end gap-2">
        <button ref={cancel} type="button" className="btn" onClick={onCancel} disabled={busy}>{t('common.cancel')}</button>
        <button ref={confirm} type="submit" className="btn btn-primary" disabled={busy || !document} data-testid="import-confirm">{t('templates.import.confirm')}</button>
      </div>
    </form>
  );
}

/** The name or path the server named in its refusal ("DuplicateName: 胸部正常", "document.items.3.name"). */
function importDetail(error: unknown): string {
  const details = (error as { details?: { name?: unknown; path?: unknown; fields?: { path?: unknown }[] } }).details;
  const name = typeof details?.name === 'string' ? details.name : null;
  const path = typeof details?.path === 'string' ? details.path : typeof details?.fields?.[0]?.path === 'string' ? details.fields[0].path : null;
  return [name && ` «${name}»`, path && ` (${path})`].filter(Boolean).join('');
}
