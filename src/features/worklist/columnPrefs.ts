/**
 * Each user's column widths, order and visibility, kept in localStorage under their account id so two people
 * sharing a reading-room PC keep their own layouts. Stored values are checked against today's columns: a column
 * added later appears at its default place, a removed one is forgotten.
 */
import { useCallback, useState } from 'react';
import { COLUMN_IDS, COLUMN_SPECS } from './columns';

export interface ColumnPrefs {
  sizing: Record<string, number>;
  order: string[];
  hidden: string[];
}

export const DEFAULT_PREFS: ColumnPrefs = { sizing: {}, order: [...COLUMN_IDS], hidden: ['deletedTime', 'origin'] };

const key = (userId: number) => `worklist.columns.${userId}`;
const FIXED = new Set(COLUMN_SPECS.filter((c) => c.fixed).map((c) => c.id));

/** Today's columns in the stored order, new ones inserted after their default predecessor. */
export function mergeOrder(stored: readonly string[]): string[] {
  const known = stored.filter((id, i) => COLUMN_IDS.includes(id) && stored.indexOf(id) === i);
  for (const id of COLUMN_IDS) {
    if (known.includes(id)) continue;
    const before = COLUMN_IDS.slice(0, COLUMN_IDS.indexOf(id)).reverse().find((prev) => known.includes(prev));
    known.splice(before ? known.indexOf(before) + 1 : 0, 0, id);
  }
  return known;
}

export function sanitizePrefs(value: unknown): ColumnPrefs {
  const v = (value ?? {}) as Partial<ColumnPrefs>;
  const sizing: Record<string, number> = {};
  for (const spec of COLUMN_SPECS) {
    const width = v.sizing?.[spec.id];
    if (typeof width === 'number' && Number.isFinite(width)) sizing[spec.id] = Math.min(600, Math.max(spec.minSize ?? 32, Math.round(width)));
  }
  const order = Array.isArray(v.order) ? mergeOrder(v.order.filter((x): x is string => typeof x === 'string')) : [...DEFAULT_PREFS.order];
  const hidden = Array.isArray(v.hidden) ? v.hidden.filter((id): id is string => typeof id === 'string' && COLUMN_IDS.includes(id) && !FIXED.has(id)) : [...DEFAULT_PREFS.hidden];
  return { sizing, order, hidden };
}

export function loadPrefs(userId: number | null): ColumnPrefs {
  if (userId === null) return DEFAULT_PREFS;
  try {
    const raw = localStorage.getItem(key(userId));
    return raw ? sanitizePrefs(JSON.parse(raw)) : DEFAULT_PREFS;
  } catch {
    return DEFAULT_PREFS;
  }
}

export function useColumnPrefs(userId: number | null) {
  const [owner, setOwner] = useState(userId);
  const [prefs, setPrefs] = useState(() => loadPrefs(userId));
  // Another account signed in on this screen: its own layout.
  if (owner !== userId) {
    setOwner(userId);
    setPrefs(loadPrefs(userId));
  }

  const update = useCallback(
    (change: (current: ColumnPrefs) => ColumnPrefs) => {
      setPrefs((current) => {
        const next = change(current);
        if (userId !== null) {
          try {
            localStorage.setItem(key(userId), JSON.stringify(next));
          } catch {
            // Kept for this visit only.
          }
        }
        return next;
      });
    },
    [userId],
  );

  const reset = useCallback(() => update(() => DEFAULT_PREFS), [update]);
  return { prefs, update, reset };
}

/** Moves a column one place left (-1) or right (+1) in the order. */
export function moveColumn(order: readonly string[], id: string, step: -1 | 1): string[] {
  const index = order.indexOf(id);
  const target = index + step;
  if (index < 0 || target < 0 || target >= order.length) return [...order];
  const next = [...order];
  [next[index], next[target]] = [next[target]!, next[index]!];
  return next;
}
