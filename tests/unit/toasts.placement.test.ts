import { describe, expect, it } from 'vitest';
import { boxAt, placeToasts, type PlacementInput } from '@/lib/toasts/placement';

const base: PlacementInput = { viewport: { width: 1280, height: 800 }, height: 180, avoid: [], topInset: 44, width: 400, minWidth: 200 };

describe('where the notifications go', () => {
  it('sits bottom right when nothing is in the way', () => {
    expect(placeToasts(base)).toEqual({ corner: 'bottom-right', width: 400 });
  });

  it("moves off the report workspace's action bar (a full-width bar at the bottom)", () => {
    const actionBar = { left: 0, top: 752, width: 1280, height: 48 };
    const chosen = placeToasts({ ...base, avoid: [actionBar] });
    expect(chosen).toEqual({ corner: 'top-right', width: 400 });
  });

  it('narrows beside a print sheet in the middle and keeps off its toolbar', () => {
    const toolbar = { left: 0, top: 44, width: 1280, height: 44 };
    const sheet = { left: 243, top: 112, width: 794, height: 1123 };
    const chosen = placeToasts({ ...base, avoid: [toolbar, sheet] });
    const box = boxAt(chosen.corner, chosen.width, base);
    expect(chosen.width).toBeLessThan(400);
    expect(chosen.width).toBeGreaterThanOrEqual(200);
    expect(box.left + box.width <= sheet.left || box.left >= sheet.left + sheet.width).toBe(true);
    expect(box.top >= toolbar.top + toolbar.height || box.top + box.height <= toolbar.top).toBe(true);
  });

  it('falls back to the bottom right at full width when every place is taken', () => {
    const everything = { left: 0, top: 0, width: 1280, height: 800 };
    expect(placeToasts({ ...base, avoid: [everything] })).toEqual({ corner: 'bottom-right', width: 400 });
  });
});
