import { DndContext, PointerSensor, closestCenter, useSensor, useSensors, type DragEndEvent, type DragOverEvent } from '@dnd-kit/core';
import { SortableContext, useSortable, verticalListSortingStrategy, type SortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useState, type KeyboardEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { KbItem } from '../../../contract/kb';
import { TreeItem, TreeList } from '@/ui/TreeList';
import type { Row } from './model';

interface Props {
  rows: readonly Row[];
  open: ReadonlySet<number>;
  current: number | null;
  renaming: number | null;
  canWrite: boolean;
  treeRef: RefObject<HTMLUListElement | null>;
  label: string;
  onSelect: (id: number) => void;
  onToggle: (id: number) => void;
  onRename: (id: number, name: string | null) => void;
  /** A drop inside the item's own level: put it after `preId` (null = first). */
  onDrop: (id: number, preId: number | null) => void;
  /** A drop on another level: refused (areas §4). */
  onRefused: () => void;
}

/** While a drop would be refused, nothing makes room for it. */
const noShift: SortingStrategy = () => null;

/**
 * The knowledge-base tree (WAI-ARIA tree view): one tab stop, the focused row is the current item. The keys are the
 * screen's commands (commands.ts); the pointer drags a row by its handle, and only within its own folder level —
 * over another level the row turns red, nothing moves aside, and the drop is refused.
 */
export function KbTree({ rows, open, current, renaming, canWrite, treeRef, label, onSelect, onToggle, onRename, onDrop, onRefused }: Props) {
  const { t } = useTranslation();
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }));
  const [refused, setRefused] = useState<number | null>(null);
  const byId = new Map(rows.map((r) => [r.item.id, r.item]));
  const ids = rows.map((r) => r.item.id);

  const sameLevel = (a: KbItem | undefined, b: KbItem | undefined) => Boolean(a && b && a.parentId === b.parentId);
  const onDragOver = ({ active, over }: DragOverEvent) => {
    const from = byId.get(Number(active.id));
    const to = over ? byId.get(Number(over.id)) : undefined;
    setRefused(to && !sameLevel(from, to) ? to.id : null);
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    setRefused(null);
    const item = byId.get(Number(active.id));
    const target = over ? byId.get(Number(over.id)) : undefined;
    if (!item || !target || item.id === target.id) return;
    if (!sameLevel(item, target)) {
      onRefused();
      return;
    }
    const level = rows.filter((r) => r.item.parentId === item.parentId).map((r) => r.item.id);
    const rest = level.filter((id) => id !== item.id);
    const to = level.indexOf(target.id);
    const at = level.indexOf(item.id);
    // Dropped on a sibling: it takes that sibling's place (after it when coming from above).
    const insertAt = at < to ? rest.indexOf(target.id) + 1 : rest.indexOf(target.id);
    onDrop(item.id, insertAt === 0 ? null : rest[insertAt - 1]!);
    onSelect(item.id);
  };

  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragOver={onDragOver} onDragEnd={onDragEnd} onDragCancel={() => setRefused(null)}>
      <SortableContext items={ids} strategy={refused === null ? verticalListSortingStrategy : noShift} disabled={!canWrite}>
        <TreeList ref={treeRef} label={label} className="py-1 text-[13px]" testId="kb-tree">
          {rows.length === 0 && <li role="none" className="px-3 py-6 text-center text-fg-muted">{t('kb.tree.empty')}</li>}
          {rows.map((row) => (
            <TreeRow
              key={row.item.id}
              row={row}
              open={open.has(row.item.id)}
              current={row.item.id === current}
              tabStop={row.item.id === current || (current === null && row === rows[0])}
              renaming={row.item.id === renaming}
              refused={row.item.id === refused}
              canWrite={canWrite}
              onSelect={onSelect}
              onToggle={onToggle}
              onRename={onRename}
            />
          ))}
        </TreeList>
      </SortableContext>
    </DndContext>
  );
}

const ICON: Record<KbItem['type'], string> = { folder: '▸', template: '◇', text: '¶' };

function TreeRow({ row, open, current, tabStop, renaming, refused, canWrite, onSelect, onToggle, onRename }: {
  row: Row; open: boolean; current: boolean; tabStop: boolean; renaming: boolean; refused: boolean; canWrite: boolean;
  onSelect: (id: number) => void; onToggle: (id: number) => void; onRename: (id: number, name: string | null) => void;
}) {
  const { t } = useTranslation();
  const { item, depth } = row;
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: item.id, disabled: !canWrite || renaming });
  const folder = item.type === 'folder';
  return (
    <TreeItem
      ref={setNodeRef}
      level={depth}
      selected={current}
      folder={folder}
      open={open}
      tabIndex={tabStop ? 0 : -1}
      data-kb-id={item.id}
      data-testid="kb-row"
      onClick={() => onSelect(item.id)}
      // Focus is selection: a row reached by Tab (or any focus) becomes the current item.
      onFocus={(e) => { if (e.target === e.currentTarget && !current) onSelect(item.id); }}
      onDoubleClick={() => folder && onToggle(item.id)}
      style={{ transform: CSS.Transform.toString(transform), transition, paddingLeft: `${(depth - 1) * 16 + 4}px` }}
      className={`group flex h-7 cursor-default items-center gap-1 pr-2 -outline-offset-2 select-none ${isDragging ? 'relative z-10 bg-sunken shadow' : ''} ${refused ? 'outline-2 outline-dashed outline-danger bg-danger-soft' : ''}`}
    >
      {canWrite && !renaming ? (
        // The handle is for the pointer; the keyboard moves the row with Alt+↑/↓ (the row is the tab stop).
        <button type="button" ref={setActivatorNodeRef} {...listeners} {...attributes} tabIndex={-1} aria-hidden="true"
          className="w-3 shrink-0 cursor-grab touch-none text-fg-subtle opacity-0 group-hover:opacity-100">⠿</button>
      ) : <span className="w-3 shrink-0" aria-hidden="true" />}
      <span aria-hidden="true" onClick={(e) => { if (folder) { e.stopPropagation(); onToggle(item.id); } }}
        className={`w-4 shrink-0 text-center text-fg-muted ${folder && open ? 'rotate-90' : ''} ${folder ? 'transition-transform' : ''}`}>{ICON[item.type]}</span>
      {renaming ? (
        <RenameInput name={item.name} label={t('kb.tree.renameLabel')} onDone={(name) => onRename(item.id, name)} />
      ) : (
        <span className={`min-w-0 flex-1 truncate ${folder ? 'font-medium' : ''}`}>{item.name}</span>
      )}
      {item.type === 'template' && item.template === null && <span className="shrink-0 text-[11px] text-warn">{t('kb.item.templateGone')}</span>}
    </TreeItem>
  );
}

function RenameInput({ name, label, onDone }: { name: string; label: string; onDone: (name: string | null) => void }) {
  const [value, setValue] = useState(name);
  const [done, setDone] = useState(false);
  const finish = (next: string | null) => {
    if (done) return;
    setDone(true);
    onDone(next === null || next.trim() === '' || next.trim() === name ? null : next.trim());
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    event.stopPropagation();
    if (event.key === 'Enter') { event.preventDefault(); finish(value); }
    if (event.key === 'Escape') { event.preventDefault(); finish(null); }
  };
  return (
    <input
      autoFocus
      aria-label={label}
      value={value}
      maxLength={128}
      onChange={(e) => setValue(e.target.value)}
      onKeyDown={onKeyDown}
      onBlur={() => finish(value)}
      onClick={(e) => e.stopPropagation()}
      onFocus={(e) => e.target.select()}
      className="input h-6 min-w-0 flex-1 px-1.5 py-0 text-[13px]"
    />
  );
}
