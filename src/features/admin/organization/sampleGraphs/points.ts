import type { SampleGraphPoint } from '../../../../../contract/sampleGraphs';

/**
 * The editor's pure rules: points and the crosshair live in fractions of the drawing (0..1), so they stay put at any
 * display size; rounding to 4 places keeps saved lists short without a visible shift.
 */
export interface Cursor { x: number; y: number }

export const STEP = 0.01;
export const BIG_STEP = 0.05;

const round = (v: number) => Math.round(v * 10_000) / 10_000;
export const clamp = (v: number) => round(Math.min(1, Math.max(0, v)));
/** A fraction as a CSS percentage without float noise (0.53 → '53%', not '53.00000000000001%'). */
export const pct = (v: number) => `${Math.round(v * 10_000) / 100}%`;

export function moved(at: Cursor, key: string, big: boolean): Cursor | null {
  const d = big ? BIG_STEP : STEP;
  switch (key) {
    case 'ArrowLeft': return { x: clamp(at.x - d), y: at.y };
    case 'ArrowRight': return { x: clamp(at.x + d), y: at.y };
    case 'ArrowUp': return { x: at.x, y: clamp(at.y - d) };
    case 'ArrowDown': return { x: at.x, y: clamp(at.y + d) };
    default: return null;
  }
}

/** The index of the point within `radius` (in fractions of width and height, as pixels over the shown size) of `at`. */
export function pointNear(points: readonly SampleGraphPoint[], at: Cursor, radius: { x: number; y: number }): number | null {
  let best: number | null = null;
  let bestD = Infinity;
  points.forEach((p, i) => {
    const dx = (p.x - at.x) / radius.x, dy = (p.y - at.y) / radius.y;
    const d = dx * dx + dy * dy;
    if (d <= 1 && d < bestD) { best = i; bestD = d; }
  });
  return best;
}

/** Tab through the points: the next (or previous) index, or null when the walk leaves the drawing. */
export function cycled(count: number, selected: number | null, back: boolean): number | null {
  if (count === 0) return null;
  if (selected === null) return back ? count - 1 : 0;
  const next = selected + (back ? -1 : 1);
  return next < 0 || next >= count ? null : next;
}

export function samePoints(a: readonly SampleGraphPoint[], b: readonly SampleGraphPoint[]): boolean {
  return a.length === b.length && a.every((p, i) => {
    const q = b[i]!;
    return p.x === q.x && p.y === q.y && p.color.toLowerCase() === q.color.toLowerCase() && (p.label ?? '') === (q.label ?? '');
  });
}
