import { describe, expect, it } from 'vitest';
import { treeKey, type TreeKeyRow } from '@/lib/treeKeys';

// A (open folder) > a1, a2; B (closed folder, with children); c (a leaf at the top).
const ROWS: TreeKeyRow[] = [
  { id: 1, parentId: null, isFolder: true, hasChildren: true },
  { id: 11, parentId: 1, isFolder: false, hasChildren: false },
  { id: 12, parentId: 1, isFolder: false, hasChildren: false },
  { id: 2, parentId: null, isFolder: true, hasChildren: true },
  { id: 3, parentId: null, isFolder: false, hasChildren: false },
];
const OPEN = new Set([1]);

describe('treeKey: one keyboard for every tree list', () => {
  it('↑/↓ step and stop at the ends; Home/End the first and last row', () => {
    expect(treeKey(ROWS, OPEN, 11, 'ArrowDown')).toEqual({ focus: 12 });
    expect(treeKey(ROWS, OPEN, 3, 'ArrowDown')).toEqual({ focus: 3 });
    expect(treeKey(ROWS, OPEN, 1, 'ArrowUp')).toEqual({ focus: 1 });
    expect(treeKey(ROWS, OPEN, 12, 'Home')).toEqual({ focus: 1 });
    expect(treeKey(ROWS, OPEN, 12, 'End')).toEqual({ focus: 3 });
  });

  it('→ opens a closed folder, enters an open one, leaves a leaf be', () => {
    expect(treeKey(ROWS, OPEN, 2, 'ArrowRight')).toEqual({ focus: 2, open: 2 });
    expect(treeKey(ROWS, OPEN, 1, 'ArrowRight')).toEqual({ focus: 11 });
    expect(treeKey(ROWS, OPEN, 3, 'ArrowRight')).toEqual({ focus: 3 });
  });

  it('← closes an open folder, else climbs to the folder above, else stays', () => {
    expect(treeKey(ROWS, OPEN, 1, 'ArrowLeft')).toEqual({ focus: 1, close: 1 });
    expect(treeKey(ROWS, OPEN, 12, 'ArrowLeft')).toEqual({ focus: 1 });
    expect(treeKey(ROWS, OPEN, 3, 'ArrowLeft')).toEqual({ focus: 3 });
  });

  it('an empty tree focuses nothing; a focus on no row goes to the first', () => {
    expect(treeKey([], OPEN, null, 'ArrowDown')).toEqual({ focus: null });
    expect(treeKey(ROWS, OPEN, 99, 'End')).toEqual({ focus: 1 });
  });
});
