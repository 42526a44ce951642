import { describe, expect, it } from 'vitest';
import {
  applyOrder, depthOf, descendantIds, neighbourPreId, resortPlan, treeOrder, wouldCycle, type KbItem,
} from '../../contract/kb';
import { ancestorIds, folderPath, parentForNew, plainText, searchItems, treeKey, visibleRows } from '../../src/features/kb/model';

/** The knowledge base's pure tree rules (contract/kb.ts, shared by the server and the screen) and the screen's model. */
const item = (id: number, parentId: number | null, sort: number, type: KbItem['type'] = 'folder', name = `项${id}`, content = ''): KbItem => ({
  id, bucketId: 1, parentId, type, name, referenceId: null, content, sort, createdBy: null, created: '2026-01-01T00:00:00.000Z', updated: null, template: null,
});

//  1 胸部 (folder)         5 规范 (folder)      8 缩写 (text)
//  ├ 2 肺结节 (text)        └ 6 书写 (text)
//  ├ 3 子目录 (folder)
//  │ └ 4 磨玻璃 (text)
//  └ 7 链接 (template)
const TREE: KbItem[] = [
  item(8, null, 3, 'text', '缩写', '<p><b>GGO</b> 磨玻璃影</p>'),
  item(3, 1, 2, 'folder', '子目录'),
  item(1, null, 1, 'folder', '胸部'),
  item(7, 1, 3, 'template', '链接'),
  item(4, 3, 1, 'text', '磨玻璃', '<p>纯磨玻璃结节随访</p>'),
  item(2, 1, 1, 'text', '肺结节', '<p>Fleischner 随访建议</p>'),
  item(5, null, 2, 'folder', '规范'),
  item(6, 5, 1, 'text', '书写', '<p>结论按重要性排列</p>'),
];

describe('tree order', () => {
  it('puts each parent before its children, siblings by sort then id', () => {
    expect(treeOrder(TREE).map((i) => i.id)).toEqual([1, 2, 3, 4, 7, 5, 6, 8]);
    const tie = [item(10, null, 1), item(9, null, 1)];
    expect(treeOrder(tie).map((i) => i.id)).toEqual([9, 10]);
  });

  it('leaves out orphans and cycles instead of looping', () => {
    const broken = [item(1, null, 1), item(2, 99, 1), item(3, 4, 1), item(4, 3, 1)];
    expect(treeOrder(broken).map((i) => i.id)).toEqual([1]);
  });
});

describe('descendants, depth and cycles', () => {
  it('finds every descendant at any depth, not the item itself', () => {
    expect(descendantIds(TREE, 1).sort()).toEqual([2, 3, 4, 7]);
    expect(descendantIds(TREE, 3)).toEqual([4]);
    expect(descendantIds(TREE, 8)).toEqual([]);
  });

  it('measures depth from the top level', () => {
    expect(depthOf(TREE, null)).toBe(0);
    expect(depthOf(TREE, 1)).toBe(1);
    expect(depthOf(TREE, 4)).toBe(3);
  });

  it('refuses a move into the item itself or under its own descendants', () => {
    expect(wouldCycle(TREE, 1, 1)).toBe(true);
    expect(wouldCycle(TREE, 1, 3)).toBe(true);
    expect(wouldCycle(TREE, 1, 4)).toBe(true);
    expect(wouldCycle(TREE, 3, 1)).toBe(false);
    expect(wouldCycle(TREE, 3, 5)).toBe(false);
    expect(wouldCycle(TREE, 1, null)).toBe(false);
  });
});

describe('re-sort within a level', () => {
  it('puts the item after preId, or first with null', () => {
    expect(resortPlan(TREE, 7, 2)).toEqual({ ok: true, order: [2, 7, 3] });
    expect(resortPlan(TREE, 7, null)).toEqual({ ok: true, order: [7, 2, 3] });
    expect(resortPlan(TREE, 2, 7)).toEqual({ ok: true, order: [3, 7, 2] });
    expect(resortPlan(TREE, 8, null)).toEqual({ ok: true, order: [8, 1, 5] });
  });

  it('refuses a preId of another level, the item itself, or an unknown item', () => {
    expect(resortPlan(TREE, 2, 5)).toEqual({ ok: false, reason: 'otherLevel' });
    expect(resortPlan(TREE, 2, 4)).toEqual({ ok: false, reason: 'otherLevel' });
    expect(resortPlan(TREE, 2, 1)).toEqual({ ok: false, reason: 'otherLevel' });
    expect(resortPlan(TREE, 2, 999)).toEqual({ ok: false, reason: 'otherLevel' });
    expect(resortPlan(TREE, 2, 2)).toEqual({ ok: false, reason: 'self' });
    expect(resortPlan(TREE, 999, null)).toEqual({ ok: false, reason: 'notFound' });
  });

  it('gives the preId of a one-place move (Alt+↑/↓), none past the ends', () => {
    expect(neighbourPreId(TREE, 3, 1)).toEqual({ preId: 7 });
    expect(neighbourPreId(TREE, 3, -1)).toEqual({ preId: null });
    expect(neighbourPreId(TREE, 7, -1)).toEqual({ preId: 2 });
    expect(neighbourPreId(TREE, 2, -1)).toBeUndefined();
    expect(neighbourPreId(TREE, 7, 1)).toBeUndefined();
    expect(neighbourPreId(TREE, 4, 1)).toBeUndefined();
  });

  it('numbers the level 1…n and leaves other levels alone', () => {
    const plan = resortPlan(TREE, 7, null);
    if (!plan.ok) throw new Error('plan refused');
    const after = applyOrder(TREE, plan.order);
    expect(treeOrder(after).filter((i) => i.parentId === 1).map((i) => [i.id, i.sort])).toEqual([[7, 1], [2, 2], [3, 3]]);
    expect(after.find((i) => i.id === 8)!.sort).toBe(3);
    // A move down and back up is where it started.
    const down = neighbourPreId(after, 7, 1)!;
    const back = resortPlan(after, 7, down.preId);
    expect(back.ok && back.order).toEqual([2, 7, 3]);
  });
});

describe('the screen\'s tree model', () => {
  it('shows the top level and the children of open folders only', () => {
    expect(visibleRows(TREE, new Set()).map((r) => r.item.id)).toEqual([1, 5, 8]);
    const rows = visibleRows(TREE, new Set([1, 3]));
    expect(rows.map((r) => [r.item.id, r.depth])).toEqual([[1, 1], [2, 2], [3, 2], [4, 3], [7, 2], [5, 1], [8, 1]]);
    expect(rows.find((r) => r.item.id === 1)!.hasChildren).toBe(true);
    expect(rows.find((r) => r.item.id === 8)!.hasChildren).toBe(false);
  });

  it('walks the tree with the arrows as a WAI-ARIA tree view', () => {
    const open = new Set([1]);
    const rows = visibleRows(TREE, open);
    expect(treeKey(rows, open, 1, 'ArrowDown')).toEqual({ focus: 2 });
    expect(treeKey(rows, open, 2, 'ArrowUp')).toEqual({ focus: 1 });
    expect(treeKey(rows, open, 1, 'ArrowUp')).toEqual({ focus: 1 });
    expect(treeKey(rows, open, 8, 'ArrowDown')).toEqual({ focus: 8 });
    expect(treeKey(rows, open, 3, 'ArrowRight')).toEqual({ focus: 3, open: 3 });
    expect(treeKey(rows, open, 1, 'ArrowRight')).toEqual({ focus: 2 });
    expect(treeKey(rows, open, 1, 'ArrowLeft')).toEqual({ focus: 1, close: 1 });
    expect(treeKey(rows, open, 2, 'ArrowLeft')).toEqual({ focus: 1 });
    expect(treeKey(rows, open, 5, 'ArrowLeft')).toEqual({ focus: 5 });
    expect(treeKey(rows, open, 2, 'Home')).toEqual({ focus: 1 });
    expect(treeKey(rows, open, 2, 'End')).toEqual({ focus: 8 });
    expect(treeKey(rows, open, null, 'ArrowDown')).toEqual({ focus: 1 });
    expect(treeKey([], open, null, 'ArrowDown')).toEqual({ focus: null });
  });

  it('puts a new item into a selected folder, beside anything else, at the top with nothing selected', () => {
    expect(parentForNew(TREE, 3)).toBe(3);
    expect(parentForNew(TREE, 4)).toBe(3);
    expect(parentForNew(TREE, 8)).toBeNull();
    expect(parentForNew(TREE, null)).toBeNull();
    expect(parentForNew(TREE, 999)).toBeNull();
  });

  it('names the folders above an item', () => {
    expect(ancestorIds(TREE, 4)).toEqual([1, 3]);
    expect(folderPath(TREE, 4)).toBe('胸部 / 子目录');
    expect(folderPath(TREE, 8)).toBe('');
  });

  it('finds items by name first, then texts by their words, every typed word required', () => {
    expect(searchItems(TREE, '磨玻璃').map((i) => i.id)).toEqual([4, 8]);
    expect(searchItems(TREE, 'fleischner').map((i) => i.id)).toEqual([2]);
    expect(searchItems(TREE, '随访 纯').map((i) => i.id)).toEqual([4]);
    expect(searchItems(TREE, '胸部').map((i) => i.id)).toEqual([1]);
    expect(searchItems(TREE, '不存在')).toEqual([]);
    expect(searchItems(TREE, '   ')).toEqual([]);
    // Tags are not words.
    expect(searchItems(TREE, 'GGO').map((i) => i.id)).toEqual([8]);
    expect(searchItems(TREE, '<b>')).toEqual([]);
    expect(plainText('<p>a&nbsp;<b>b</b></p><p>c &lt;5 mm</p>')).toBe('a b c <5 mm');
  });
});
