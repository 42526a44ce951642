import { useEffect, useId, useMemo, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { TemplateNode } from '../../../contract/reports';
import { TreeItem, TreeList } from '@/ui/TreeList';
import { visibleRows } from './treeModel';

interface Props {
  ref: Ref<HTMLUListElement>;
  roots: TemplateNode[];
  active: number | null;
  open: ReadonlySet<number>;
  editingId: number | null;
  dirty: boolean;
  onActivate: (id: number) => void;
  onToggle: (id: number) => void;
  onOpen: (node: TemplateNode) => void;
}

/**
 * The tree as one focusable element (role tree, the active row by aria-activedescendant): the screen's commands move
 * the cursor (commands.ts), the mouse picks a row, a click on a folder's arrow opens or closes it.
 */
export function TemplateTree({ ref, roots, active, open, editingId, dirty, onActivate, onToggle, onOpen }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const rows = useMemo(() => visibleRows(roots, open), [roots, open]);
  const rowId = (nodeId: number) => `${id}-${nodeId}`;

  useEffect(() => {
    if (active === null) return;
    document.getElementById(rowId(active))?.scrollIntoView({ block: 'nearest' });
  });

  if (rows.length === 0) return <p className="flex-1 p-3 text-sm text-fg-muted">{t('templates.page.empty')}</p>;
  return (
    <TreeList
      ref={ref}
      tabIndex={0}
      label={t('templates.page.tree')}
      aria-activedescendant={active !== null ? rowId(active) : undefined}
      className="min-h-0 flex-1 overflow-auto py-1 outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-accent"
      testId="templates-tree"
    >
      {rows.map(({ node, level }) => {
        const selected = node.id === active;
        const isOpen = node.isFolder && open.has(node.id);
        return (
          <TreeItem
            key={node.id}
            id={rowId(node.id)}
            level={level}
            selected={selected}
            folder={node.isFolder}
            open={isOpen}
            className="flex cursor-pointer items-baseline gap-1.5 py-1 pr-2 text-sm"
            style={{ paddingLeft: `${0.5 + (level - 1)}rem` }}
            onMouseDown={(event) => event.preventDefault()}
            onClick={(event) => {
              onActivate(node.id);
              if (node.isFolder) onToggle(node.id);
              else onOpen(node);
              event.currentTarget.closest<HTMLElement>('[role="tree"]')?.focus();
            }}
          >
            <span aria-hidden="true" className="w-3 shrink-0 text-fg-subtle">{node.isFolder ? (isOpen ? '▾' : '▸') : ''}</span>
            <span className={`truncate ${node.isFolder ? 'font-medium' : ''}`}>{node.name}</span>
            {!node.isFolder && node.modality && <span className="shrink-0 text-xs text-fg-subtle">{node.modality}</span>}
            {node.id === editingId && dirty && <span className="shrink-0 text-xs text-warn" title={t('templates.editor.unsaved')}>●</span>}
          </TreeItem>
        );
      })}
    </TreeList>
  );
}
