import type { ComponentProps } from 'react';

/**
 * A tree list's frame (WAI-ARIA tree view), one for every tree on screen (templates, the knowledge base): the list
 * (`role="tree"`, named) and its rows (`role="treeitem"` with level, selection and, for a folder, whether it is open,
 * in the one look of the row in hand). The keys are `treeKey` (src/lib/treeKeys.ts), which each screen runs through
 * its commands.
 *
 * Each tree keeps what is its own, because the two differ in how they hold the focus and not only in what a row
 * shows: the templates' tree is one tab stop whose row in hand is named by aria-activedescendant, the knowledge
 * base's rows take the focus themselves (roving tab stop), are dragged (a row is a sortable element of its own, with
 * its hook) and renamed in place. So the row's content, its handlers and any wrapper (the drag context) stay with the
 * screen; what every tree says to a screen reader and how its row in hand looks is written here once.
 */
export function TreeList({ label, testId, children, ...rest }: Omit<ComponentProps<'ul'>, 'role' | 'aria-label'> & {
  label: string; testId: string;
}) {
  return <ul role="tree" aria-label={label} data-testid={testId} {...rest}>{children}</ul>;
}

/** The look of a row: the row in hand stands out, another shows the pointer over it. */
export function treeRowTone(selected: boolean): string {
  return selected ? 'bg-accent-soft text-fg' : 'text-fg hover:bg-sunken';
}

export function TreeItem({ level, selected, folder, open, className = '', children, ...rest }: Omit<ComponentProps<'li'>, 'role'> & {
  /** 1 at the top. */
  level: number;
  selected: boolean;
  folder: boolean;
  /** Whether a folder is open (not said of a leaf). */
  open: boolean;
}) {
  return (
    <li role="treeitem" aria-level={level} aria-selected={selected} aria-expanded={folder ? open : undefined}
      className={`${className} ${treeRowTone(selected)}`} {...rest}>
      {children}
    </li>
  );
}
