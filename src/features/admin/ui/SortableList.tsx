import { DndContext, KeyboardSensor, PointerSensor, closestCenter, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { SortableContext, arrayMove, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MAIN_CONTROL } from '@/lib/mainFocus';

/**
 * An ordered list (procedures, steps, device groups, queue types): drag a row by its handle, or move the focused row
 * with Alt+↑ / Alt+↓ (↑ ↓ alone move the focus). `onMove` gets the whole new order of ids — what the resort calls
 * take — and the focus stays on the moved row.
 */
export function SortableList<T extends { id: number }>({ items, label, onMove, onDelete, render, disabled = false, testId }: {
  items: readonly T[];
  label: string;
  onMove: (ids: number[], movedId: number) => void;
  /** Delete (or Backspace) on a focused row: the caller asks before it deletes. */
  onDelete?: (item: T) => void;
  render: (item: T) => ReactNode;
  disabled?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation();
  const listRef = useRef<HTMLOListElement>(null);
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const ids = items.map((i) => i.id);

  const focusRow = (id: number) => requestAnimationFrame(() => listRef.current?.querySelector<HTMLElement>(`[data-row-id="${id}"]`)?.focus());
  const move = (id: number, to: number) => {
    const from = ids.indexOf(id);
    if (from < 0 || to < 0 || to >= ids.length || from === to) return;
    onMove(arrayMove(ids, from, to), id);
    focusRow(id);
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over && active.id !== over.id) move(Number(active.id), ids.indexOf(Number(over.id)));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLLIElement>, id: number) => {
    if (event.target !== event.currentTarget) return;
    if ((event.key === 'Delete' || event.key === 'Backspace') && onDelete && !disabled) {
      const item = items.find((i) => i.id === id);
      if (item) { event.preventDefault(); onDelete(item); }
      return;
    }
    const at = ids.indexOf(id);
    const step = event.key === 'ArrowUp' ? -1 : event.key === 'ArrowDown' ? 1 : 0;
    if (step === 0) return;
    event.preventDefault();
    if (event.altKey) {
      if (!disabled) move(id, at + step);
    } else {
      const next = ids[at + step];
      if (next !== undefined) focusRow(next);
    }
  };

  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
      <SortableContext items={ids} strategy={verticalListSortingStrategy} disabled={disabled}>
        <ol ref={listRef} aria-label={label} className="divide-y divide-line rounded-md border border-line bg-surface" data-testid={testId}>
          {items.map((item, index) => (
            <Row key={item.id} id={item.id} index={index} disabled={disabled} moveHint={t('admin.order.hint')} onKeyDown={(e) => onKeyDown(e, item.id)}>
              {render(item)}
            </Row>
          ))}
        </ol>
      </SortableContext>
    </DndContext>
  );
}

function Row({ id, index, disabled, moveHint, onKeyDown, children }: {
  id: number; index: number; disabled: boolean; moveHint: string; onKeyDown: (e: KeyboardEvent<HTMLLIElement>) => void; children: ReactNode;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id, disabled });
  return (
    <li ref={setNodeRef} tabIndex={0} data-row-id={id} {...(index === 0 ? MAIN_CONTROL : {})} aria-roledescription={moveHint} onKeyDown={onKeyDown}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      className={`flex items-center gap-2 px-2 py-1.5 text-[13px] -outline-offset-2 focus-visible:bg-accent-soft ${isDragging ? 'relative z-10 bg-sunken shadow' : ''}`}>
      <span className="w-6 shrink-0 text-right tabular-nums text-fg-subtle">{index + 1}</span>
      {!disabled && (
        // The handle is for the pointer; the keyboard moves the row itself with Alt+↑/↓ (the row is the tab stop).
        <button type="button" ref={setActivatorNodeRef} {...listeners} {...attributes} tabIndex={-1} aria-hidden="true"
          className="cursor-grab touch-none px-1 text-fg-subtle hover:text-fg">⠿</button>
      )}
      <div className="flex min-w-0 flex-1 items-center gap-3">{children}</div>
    </li>
  );
}
