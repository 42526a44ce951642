import { describe, expect, it } from 'vitest';
import type { TemplateNode } from '../../contract/reports';
import {
  TEMPLATE_IMPORT_MAX_DEPTH, TEMPLATE_IMPORT_MAX_NODES, documentClash, documentCounts, documentSizeProblem, templateDocument, toDocument,
} from '../../contract/templates';
import { withGroupFolder } from '@/features/report/templates/useTemplates';
import { ancestorsOf, focusAfterDelete, moveCursor, moveTargets, openTo, targetFolder, visibleRows } from '@/features/templates/treeModel';

/** The template management screen's tree rules and the exchange document's checks. */
function tree(spec: Spec[], parentId: number | null = null, ids = { next: 1 }): TemplateNode[] {
  return spec.map((s) => {
    const id = ids.next++;
    const folder = Array.isArray(s[1]);
    return {
      id, bucketId: 1, groupId: null, parentId, name: s[0], isFolder: folder, modality: null, bodyPart: null,
      finding: folder ? '' : `<p>${s[0]}</p>`, diagnosis: '', sort: 0, children: folder ? tree(s[1] as Spec[], id, ids) : [],
    };
  });
}
type Spec = [string] | [string, Spec[]];

// 1 CT [2 chest, 3 head, 4 Sub [5 deep]], 6 MR [7 knee], 8 loose, 9 Empty []
const roots = tree([['CT', [['chest'], ['head'], ['Sub', [['deep']]]]], ['MR', [['knee']]], ['loose'], ['Empty', []]]);
const names = (rows: { node: TemplateNode }[]) => rows.map((r) => r.node.name);

describe('template tree keys', () => {
  it('shows the open folders\' rows, depth first', () => {
    expect(names(visibleRows(roots, new Set()))).toEqual(['CT', 'MR', 'loose', 'Empty']);
    expect(names(visibleRows(roots, new Set([1, 4])))).toEqual(['CT', 'chest', 'head', 'Sub', 'deep', 'MR', 'loose', 'Empty']);
  });

  it('moves with ↑/↓ within the visible rows and stops at the ends', () => {
    const open = new Set([1]);
    expect(moveCursor(roots, { active: 1, open }, 'ArrowDown').active).toBe(2);
    expect(moveCursor(roots, { active: 4, open }, 'ArrowDown').active).toBe(6);
    expect(moveCursor(roots, { active: 1, open }, 'ArrowUp').active).toBe(1);
    expect(moveCursor(roots, { active: 9, open }, 'ArrowDown').active).toBe(9);
    expect(moveCursor(roots, { active: 3, open }, 'Home').active).toBe(1);
    expect(moveCursor(roots, { active: 3, open }, 'End').active).toBe(9);
    expect(moveCursor(roots, { active: null, open }, 'ArrowDown').active).toBe(1);
    expect(moveCursor([], { active: null, open }, 'ArrowDown').active).toBeNull();
  });

  it('opens a folder with →, then enters it; ← closes it, then climbs to its folder', () => {
    const opened = moveCursor(roots, { active: 1, open: new Set() }, 'ArrowRight');
    expect(opened).toEqual({ active: 1, open: new Set([1]) });
    expect(moveCursor(roots, opened, 'ArrowRight').active).toBe(2);
    expect(moveCursor(roots, { active: 9, open: new Set([9]) }, 'ArrowRight').active).toBe(9);
    expect(moveCursor(roots, { active: 2, open: new Set([1]) }, 'ArrowRight').active).toBe(2);
    expect(moveCursor(roots, { active: 2, open: new Set([1]) }, 'ArrowLeft')).toEqual({ active: 1, open: new Set([1]) });
    expect(moveCursor(roots, { active: 1, open: new Set([1]) }, 'ArrowLeft')).toEqual({ active: 1, open: new Set() });
    expect(moveCursor(roots, { active: 5, open: new Set([1, 4]) }, 'ArrowLeft').active).toBe(4);
    expect(moveCursor(roots, { active: 8, open: new Set() }, 'ArrowLeft').active).toBe(8);
  });

  it('puts a new node into the active folder, or beside the active template', () => {
    expect(targetFolder(roots, 1)).toBe(1);
    expect(targetFolder(roots, 3)).toBe(1);
    expect(targetFolder(roots, 8)).toBeNull();
    expect(targetFolder(roots, null)).toBeNull();
    expect(targetFolder(roots, 999)).toBeNull();
  });

  it('offers every folder but the node itself, its own descendants and its present folder as a move target', () => {
    const forSub = moveTargets(roots, 4);
    expect(forSub.map((t) => t.id)).toEqual([null, 6, 9]);
    const forChest = moveTargets(roots, 2);
    expect(forChest).toEqual([{ id: null, path: [] }, { id: 4, path: ['CT', 'Sub'] }, { id: 6, path: ['MR'] }, { id: 9, path: ['Empty'] }]);
    expect(moveTargets(roots, 8).map((t) => t.id)).toEqual([1, 4, 6, 9]);
  });

  it('keeps the cursor near after a deletion and opens the tree down to a node', () => {
    const open = new Set([1]);
    expect(focusAfterDelete(roots, open, 2)).toBe(3);
    expect(focusAfterDelete(roots, new Set([1, 4]), 5)).toBe(6);
    expect(focusAfterDelete(roots, open, 9)).toBe(8);
    expect(focusAfterDelete(tree([['only']]), new Set(), 1)).toBeNull();
    expect([...openTo(roots, new Set([6]), 5)].sort()).toEqual([1, 4, 6]);
    expect(ancestorsOf(roots, 5).map((n) => n.name)).toEqual(['CT', 'Sub']);
  });

  it('adds the group\'s shared tree to the picker as a last folder with an id no stored node has', () => {
    const group = tree([['集团规范', [['肺结节']]]]);
    const merged = withGroupFolder({ items: roots, group: { groupId: 7, groupName: 'G', canWrite: false, items: group } }, '集团共享 · G');
    expect(merged.at(-1)).toMatchObject({ id: -7, isFolder: true, name: '集团共享 · G', groupId: 7 });
    expect(merged.at(-1)!.children).toBe(group);
    expect(withGroupFolder({ items: roots, group: null }, 'x')).toBe(roots);
    expect(withGroupFolder({ items: roots, group: { groupId: 7, groupName: 'G', canWrite: false, items: [] } }, 'x')).toBe(roots);
  });
});

describe('template exchange document', () => {
  it('round-trips a tree through the document shape', () => {
    const document = toDocument(roots, 'Hospital', '2026-01-01T00:00:00.000Z');
    expect(templateDocument.safeParse(document).success).toBe(true);
    expect(document.items[0]).toMatchObject({ name: 'CT', folder: true, children: [{ name: 'chest', finding: '<p>chest</p>' }, {}, { name: 'Sub', folder: true }] });
    expect(documentCounts(document.items)).toEqual({ folders: 4, templates: 5 });
  });

  it('measures size and depth before the shape, without recursion', () => {
    let deep: unknown = { name: 'leaf' };
    for (let i = 0; i < 20_000; i++) deep = { name: 'f', folder: true, children: [deep] };
    expect(documentSizeProblem({ items: [deep] })?.path).toBe(`document.items${'.0.children'.repeat(TEMPLATE_IMPORT_MAX_DEPTH)}`);
    const wide = Array.from({ length: TEMPLATE_IMPORT_MAX_NODES }, () => ({ name: 'x' }));
    expect(documentSizeProblem({ items: wide })).toBeNull();
    expect(documentSizeProblem({ items: [...wide, { name: 'y' }] })?.path).toBe('document.items');
    expect(documentSizeProblem(null)?.path).toBe('document');
    expect(documentSizeProblem({ items: 'x' })?.path).toBe('document.items');
  });

  it('finds a name twice in one folder, whatever its case and spaces, and not across folders', () => {
    expect(documentClash([{ name: 'A' }, { name: 'B', folder: true, children: [{ name: 'A' }] }])).toBeNull();
    expect(documentClash([{ name: 'A' }, { name: ' a ' }])).toEqual({ path: 'document.items.1.name', name: 'a' });
    expect(documentClash([{ name: 'F', folder: true, children: [{ name: 'x' }, { name: 'X' }] }])).toEqual({ path: 'document.items.0.children.1.name', name: 'X' });
  });
});
