/**
 * On screens without the shell (no notification lane, ./lane.ts): where the floating notification stack goes so it
 * never covers what a screen marks as not to be covered (elements with `data-toast-avoid`). The corners are
 * tried in order, each at the full toast width and then narrower, down to a minimum; the first box that touches
 * no marked area wins. Pure, so the rule is tested without a browser.
 */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface ToastPlacement {
  corner: 'bottom-right' | 'top-right' | 'bottom-left' | 'top-left';
  width: number;
}

export interface PlacementInput {
  viewport: { width: number; height: number };
  /** The stack's height (at least one toast's). */
  height: number;
  avoid: readonly Box[];
  /** The navbar's height: the top corners start below it. */
  topInset: number;
  width: number;
  minWidth: number;
  margin?: number;
}

const CORNERS: readonly ToastPlacement['corner'][] = ['bottom-right', 'top-right', 'bottom-left', 'top-left'];

export function boxAt(corner: ToastPlacement['corner'], width: number, input: PlacementInput): Box {
  const margin = input.margin ?? 16;
  const left = corner.endsWith('right') ? input.viewport.width - margin - width : margin;
  const top = corner.startsWith('bottom') ? input.viewport.height - margin - input.height : input.topInset + margin / 2;
  return { left, top, width, height: input.height };
}

function overlaps(a: Box, b: Box): boolean {
  return a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height;
}

export function placeToasts(input: PlacementInput): ToastPlacement {
  const widths: number[] = [];
  for (let w = Math.min(input.width, input.viewport.width - 32); w >= input.minWidth; w -= 40) widths.push(w);
  for (const width of widths) {
    for (const corner of CORNERS) {
      const box = boxAt(corner, width, input);
      if (!input.avoid.some((area) => overlaps(box, area))) return { corner, width };
    }
  }
  return { corner: 'bottom-right', width: Math.min(input.width, input.viewport.width - 32) };
}
