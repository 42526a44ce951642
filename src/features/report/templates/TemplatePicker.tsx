import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TemplateNode } from '../../../../contract/reports';
import { errorText } from '@/lib/errorText';
import { Alert } from '@/ui/Alert';
import { Dialog } from '@/ui/Dialog';
import { Spinner } from '@/ui/Spinner';
import { ReportHtml } from '../editor/ReportHtml';
import type { InsertMode } from './insertTemplate';
import { preselect, searchTemplates, visibleRows, type TemplateRow } from './templateTree';

interface Props {
  open: boolean;
  roots: TemplateNode[] | null;
  error: unknown;
  onRetry: () => void;
  modality: string | null;
  /** The exam's body part: the picker opens on a template of the same modality and body part when there is one. */
  bodyPart: string | null;
  onPick: (template: TemplateNode, mode: InsertMode) => void;
  onClose: () => void;
}

/**
 * The template picker (opened by '/' at the start of a line, or from the palette): a search field that keeps
 * the focus, the tree or the matches under it, and the chosen template's text beside. ↑/↓ move, →/← open and
 * close a folder, Enter inserts, Alt+Enter replaces, Esc closes.
 */
export function TemplatePicker(props: Props) {
  const { t } = useTranslation();
  return (
    <Dialog open={props.open} title={t('report.templates.title')} onCancel={props.onClose} width={860}>
      {props.open && <PickerBody {...props} />}
    </Dialog>
  );
}

function PickerBody({ roots, error, onRetry, modality, bodyPart, onPick, onClose }: Props) {
  const { t } = useTranslation();
  const listId = useId();
  const [query, setQuery] = useState('');
  const [openFolders, setOpenFolders] = useState<Set<number>>(() => new Set());
  const [active, setActive] = useState(0);
  const seeded = useRef(false);
  const list = useRef<HTMLUListElement>(null);

  // Once the tree is there, stand on the exam's own template (modality and body part), else its modality's first.
  useEffect(() => {
    if (!roots || seeded.current) return;
    seeded.current = true;
    const { open, active: id } = preselect(roots, modality, bodyPart);
    setOpenFolders(open);
    const index = visibleRows(roots, open).findIndex((r) => r.node.id === id);
    setActive(Math.max(0, index));
  }, [roots, modality, bodyPart]);

  const rows: TemplateRow[] = useMemo(() => {
    if (!roots) return [];
    return query.trim() ? searchTemplates(roots, query) : visibleRows(roots, openFolders);
  }, [roots, query, openFolders]);
  const current = rows[Math.min(active, rows.length - 1)] ?? null;

  useEffect(() => {
    list.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [active, rows]);

  const toggle = (id: number, open?: boolean) =>
    setOpenFolders((prev) => {
      const next = new Set(prev);
      if (open ?? !next.has(id)) next.add(id);
      else next.delete(id);
      return next;
    });

  const choose = (row: TemplateRow | null, mode: InsertMode) => {
    if (!row) return;
    if (row.node.isFolder) toggle(row.node.id);
    else onPick(row.node, mode);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.nativeEvent.isComposing) return;
    const last = rows.length - 1;
    const browsing = query.trim() === '';
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (rows.length === 0 ? 0 : (Math.min(i, last) + step + rows.length) % rows.length));
    } else if (event.key === 'Home' && browsing) {
      event.preventDefault();
      setActive(0);
    } else if (event.key === 'End' && browsing) {
      event.preventDefault();
      setActive(Math.max(0, last));
    } else if (event.key === 'ArrowRight' && browsing && current?.node.isFolder) {
      event.preventDefault();
      toggle(current.node.id, true);
    } else if (event.key === 'ArrowLeft' && browsing && current) {
      event.preventDefault();
      if (current.node.isFolder && openFolders.has(current.node.id)) toggle(current.node.id, false);
      else if (current.level > 1) {
        // To the folder above, as in any tree.
        const parent = rows.slice(0, active).findLastIndex((r) => r.node.isFolder && r.level === current.level - 1);
        if (parent >= 0) setActive(parent);
      }
    } else if (event.key === 'Enter') {
      // Claimed here so the page's Ctrl+Enter (submit) never fires under the picker.
      event.preventDefault();
      event.stopPropagation();
      choose(current, event.altKey ? 'replace' : 'insert');
    }
  };

  const optionId = (row: TemplateRow) => `${listId}-${row.node.id}`;

  return (
    <div className="flex flex-col gap-3">
      <input
        // Not type=search: its own Esc would clear the text instead of closing the picker.
        type="text"
        className="input"
        autoFocus
        role="combobox"
        aria-expanded="true"
        aria-controls={listId}
        aria-activedescendant={current ? optionId(current) : undefined}
        aria-label={t('report.templates.search')}
        placeholder={t('report.templates.searchHint')}
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
      />
      <div className="grid h-[26rem] grid-cols-[minmax(0,2fr)_minmax(0,3fr)] gap-3">
        <div className="min-h-0 overflow-auto rounded-md border border-line bg-surface">
          {!roots && !error && (
            <div className="flex h-full items-center justify-center">
              <Spinner label={t('common.loading')} />
            </div>
          )}
          {error !== null && error !== undefined && (
            <div className="flex flex-col gap-2 p-3">
              <Alert>{errorText(t, error)}</Alert>
              <button type="button" className="btn self-start" onClick={onRetry}>{t('common.retry')}</button>
            </div>
          )}
          {roots && rows.length === 0 && (
            <p className="p-3 text-sm text-fg-muted">{query.trim() ? t('report.templates.noMatch') : t('report.templates.none')}</p>
          )}
          <ul ref={list} id={listId} role={query.trim() ? 'listbox' : 'tree'} aria-label={t('report.templates.list')} className="py-1">
            {rows.map((row, index) => {
              const selected = row === current;
              return (
                <li
                  key={`${row.node.id}`}
                  id={optionId(row)}
                  role={query.trim() ? 'option' : 'treeitem'}
                  aria-selected={selected}
                  aria-level={query.trim() ? undefined : row.level}
                  aria-expanded={row.node.isFolder ? openFolders.has(row.node.id) : undefined}
                  className={`flex cursor-pointer items-baseline gap-1.5 py-1 pr-2 text-sm ${selected ? 'bg-accent-soft text-fg' : 'text-fg hover:bg-sunken'}`}
                  style={{ paddingLeft: `${0.5 + (row.level - 1) * 1}rem` }}
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => {
                    setActive(index);
                    choose(row, 'insert');
                  }}
                >
                  {row.node.isFolder ? (
                    <span aria-hidden="true" className="w-3 text-fg-subtle">{openFolders.has(row.node.id) ? '▾' : '▸'}</span>
                  ) : (
                    <span aria-hidden="true" className="w-3" />
                  )}
                  <span className={row.node.isFolder ? 'font-medium' : ''}>{row.node.name}</span>
                  {query.trim() && row.path.length > 0 && <span className="truncate text-xs text-fg-subtle">{row.path.join(' › ')}</span>}
                </li>
              );
            })}
          </ul>
        </div>
        <section aria-label={t('report.templates.preview')} className="min-h-0 overflow-auto rounded-md border border-line bg-sunken p-3">
          {current && !current.node.isFolder ? (
            <div className="flex flex-col gap-3 text-sm">
              <h3 className="text-sm font-semibold">{current.node.name}</h3>
              <div>
                <h4 className="mb-1 text-xs font-medium text-fg-muted">{t('report.fields.finding')}</h4>
                <ReportHtml html={current.node.finding} />
              </div>
              <div>
                <h4 className="mb-1 text-xs font-medium text-fg-muted">{t('report.fields.diagnosis')}</h4>
                <ReportHtml html={current.node.diagnosis} />
              </div>
            </div>
          ) : (
            <p className="text-sm text-fg-muted">{t('report.templates.previewHint')}</p>
          )}
        </section>
      </div>
      <div className="flex items-center justify-between gap-3">
        <p className="text-xs text-fg-muted">{t('report.templates.keys')}</p>
        <div className="flex gap-2">
          <button type="button" className="btn" onClick={onClose}>{t('common.cancel')}</button>
          <button type="button" className="btn" disabled={!current || current.node.isFolder} onClick={() => choose(current, 'replace')}>
            {t('report.templates.replace')}
          </button>
          <button type="button" className="btn btn-primary" disabled={!current || current.node.isFolder} onClick={() => choose(current, 'insert')}>
            {t('report.templates.insert')}
          </button>
        </div>
      </div>
    </div>
  );
}
