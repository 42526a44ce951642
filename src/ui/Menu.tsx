import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

export interface MenuItem {
  id: string;
  label: string;
  onSelect: () => void;
  /** Drawn after a divider. */
  separated?: boolean;
  /** Shown at the right of the item, e.g. the shortcut of the command that does the same. */
  hint?: string;
  /** 'danger' for an item that takes something away. */
  tone?: 'danger';
  /** For tests and styles: set as data-item on the item. */
  dataId?: string;
}

/**
 * A menu button (WAI-ARIA menu pattern): Enter, Space or ArrowDown open it on the first item,
 * arrows move, Home/End jump, Escape closes and gives focus back to the button.
 *
 * The button's name is what it shows followed by `label` (for screen readers only): "李明 Account menu". A name
 * that left out the visible words would fail whoever calls the button by what they see (voice control, WCAG 2.5.3).
 */
export function Menu({ label, buttonContent, textIsLabel = false, items, align = 'right', placement = 'below', buttonClassName = 'btn btn-ghost h-8 gap-1 px-2 text-fg-muted hover:text-fg' }: {
  label: string;
  buttonContent: ReactNode;
  /** The content already reads as the label (a "More" button): the button is named by its text alone. */
  textIsLabel?: boolean;
  items: MenuItem[];
  align?: 'left' | 'right';
  /** 'above' for a button at the bottom of the screen (a bar at the foot of the page). */
  placement?: 'below' | 'above';
  buttonClassName?: string;
}) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    list.current?.querySelectorAll<HTMLElement>('[role="menuitem"]')[active]?.focus();
  }, [open, active]);

  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent) => {
      if (!list.current?.contains(event.target as Node) && !button.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [open]);

  const openAt = (index: number) => {
    setActive(index);
    setOpen(true);
  };
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };

  return (
    <div className="relative">
      <button
        ref={button}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        className={buttonClassName}
        onClick={() => (open ? close(false) : openAt(0))}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') {
            event.preventDefault();
            openAt(0);
          } else if (event.key === 'ArrowUp') {
            event.preventDefault();
            openAt(items.length - 1);
          }
        }}
      >
        {buttonContent}
        {!textIsLabel && <span className="sr-only">{label}</span>}
      </button>
      {open && (
        <ul
          ref={list}
          id={menuId}
          role="menu"
          aria-label={label}
          className={`absolute z-40 min-w-44 rounded-md border border-line bg-raised py-1 shadow-lg ${placement === 'above' ? 'bottom-full mb-1' : 'top-full mt-1'} ${align === 'right' ? 'right-0' : 'left-0'}`}
          onKeyDown={(event) => {
            const last = items.length - 1;
            const moves: Record<string, number> = { ArrowDown: active === last ? 0 : active + 1, ArrowUp: active === 0 ? last : active - 1, Home: 0, End: last };
            if (event.key in moves) {
              event.preventDefault();
              setActive(moves[event.key]!);
            } else if (event.key === 'Escape') {
              event.preventDefault();
              close(true);
            } else if (event.key === 'Tab') {
              close(false);
            }
          }}
        >
          {items.map((item, index) => (
            <li key={item.id} role="none" className={item.separated ? 'mt-1 border-t border-line pt-1' : undefined}>
              <button
                type="button"
                role="menuitem"
                tabIndex={index === active ? 0 : -1}
                data-item={item.dataId}
                className={`flex w-full items-baseline gap-4 whitespace-nowrap px-3 py-1.5 text-left text-sm hover:bg-sunken focus-visible:bg-sunken focus-visible:outline-offset-[-2px] ${item.tone === 'danger' ? 'text-danger' : 'text-fg'}`}
                onClick={() => {
                  close(true);
                  item.onSelect();
                }}
              >
                <span className="flex-1">{item.label}</span>
                {item.hint && <span aria-hidden="true" className="text-[11px] text-fg-subtle">{item.hint}</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
