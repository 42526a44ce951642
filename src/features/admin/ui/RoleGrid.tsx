import { useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ACTIONS, type Action } from '../../../../contract/actions';
import { MAIN_CONTROL } from '@/lib/mainFocus';

export interface GridRole {
  id: number;
  name: string;
  actions: readonly string[];
}

type Category = keyof typeof ACTIONS;
const ROWS: { category: Category; action: Action }[] = (Object.keys(ACTIONS) as Category[])
  .flatMap((category) => ACTIONS[category].map((action) => ({ category, action: action as Action })));

/**
 * The role × action grid (areas §6): a row per action under its category, a column per role. One tab stop; the
 * arrow keys (or h j k l) move the cell, Space ticks or unticks it — the role is saved at once.
 */
export function RoleGrid<R extends GridRole>({ roles, busy, onToggle }: {
  roles: readonly R[];
  busy: boolean;
  onToggle: (role: R, action: Action, on: boolean) => void;
}) {
  const { t } = useTranslation();
  const [cell, setCell] = useState<{ row: number; col: number }>({ row: 0, col: 0 });
  const tableRef = useRef<HTMLTableElement>(null);

  const focusCell = (row: number, col: number) => {
    const next = { row: Math.max(0, Math.min(ROWS.length - 1, row)), col: Math.max(0, Math.min(roles.length - 1, col)) };
    setCell(next);
    tableRef.current?.querySelector<HTMLInputElement>(`[data-cell="${next.row}:${next.col}"]`)?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>, row: number, col: number) => {
    const moves: Record<string, [number, number]> = {
      ArrowUp: [-1, 0], k: [-1, 0], ArrowDown: [1, 0], j: [1, 0], ArrowLeft: [0, -1], h: [0, -1], ArrowRight: [0, 1], l: [0, 1],
    };
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      focusCell(row + move[0], col + move[1]);
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      focusCell(event.key === 'Home' ? 0 : ROWS.length - 1, col);
    }
  };

  if (roles.length === 0) return null;
  return (
    <div className="overflow-auto rounded-md border border-line bg-surface">
      <table ref={tableRef} className="w-full border-collapse text-[13px]" data-testid="role-grid" aria-label={t('admin.roles.grid')}>
        <thead className="sticky top-0 z-10 bg-surface">
          <tr className="border-b border-line">
            <th scope="col" className="px-3 py-2 text-left font-medium text-fg-muted">{t('admin.roles.action')}</th>
            {roles.map((role) => (
              <th key={role.id} scope="col" className="min-w-24 px-2 py-2 text-center font-medium" data-role-id={role.id}>{role.name}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {ROWS.map(({ category, action }, row) => (
            <tr key={action} className={`border-b border-line/60 ${row > 0 && ROWS[row - 1]!.category !== category ? 'border-t-2 border-t-line' : ''}`}>
              <th scope="row" className="px-3 py-1 text-left font-normal">
                <span className="mr-2 inline-block w-24 truncate align-bottom text-xs text-fg-subtle">{row === 0 || ROWS[row - 1]!.category !== category ? t(`admin.categories.${category}`) : ''}</span>
                {t(`admin.actions.${action}`)}
                <code className="ml-2 text-[11px] text-fg-subtle">{action}</code>
              </th>
              {roles.map((role, col) => {
                const on = role.actions.includes(action);
                return (
                  <td key={role.id} className="px-2 py-1 text-center">
                    <input type="checkbox" className="h-4 w-4 accent-[var(--accent)]" checked={on} disabled={busy}
                      tabIndex={cell.row === row && cell.col === col ? 0 : -1} {...(cell.row === row && cell.col === col ? MAIN_CONTROL : {})} data-cell={`${row}:${col}`} data-action={action} data-role-id={role.id}
                      aria-label={`${role.name}: ${t(`admin.actions.${action}`)}`}
                      onFocus={() => setCell({ row, col })} onKeyDown={(e) => onKeyDown(e, row, col)}
                      onChange={() => onToggle(role, action, !on)} />
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
