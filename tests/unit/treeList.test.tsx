// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { TreeItem, TreeList, treeRowTone } from '@/ui/TreeList';

afterEach(cleanup);

describe('TreeList: one frame for every tree', () => {
  it('names the tree and says of each row its level, selection and, for a folder only, whether it is open', () => {
    render(
      <TreeList label="Templates" testId="t-tree">
        <TreeItem level={1} selected={false} folder open>Folder</TreeItem>
        <TreeItem level={2} selected folder={false} open={false} className="pl-4" data-extra="x">Leaf</TreeItem>
      </TreeList>,
    );
    const tree = screen.getByRole('tree', { name: 'Templates' });
    expect(tree.dataset.testid).toBe('t-tree');
    const [folder, leaf] = screen.getAllByRole('treeitem');
    expect(folder!.getAttribute('aria-level')).toBe('1');
    expect(folder!.getAttribute('aria-expanded')).toBe('true');
    expect(folder!.getAttribute('aria-selected')).toBe('false');
    expect(leaf!.getAttribute('aria-level')).toBe('2');
    expect(leaf!.hasAttribute('aria-expanded')).toBe(false);
    expect(leaf!.getAttribute('aria-selected')).toBe('true');
    expect(leaf!.className).toContain('pl-4');
    expect(leaf!.className).toContain('bg-accent-soft');
    expect(leaf!.dataset.extra).toBe('x');
  });

  it('a closed folder says so; the row in hand alone stands out', () => {
    render(<TreeList label="KB" testId="kb"><TreeItem level={1} selected={false} folder open={false}>F</TreeItem></TreeList>);
    expect(screen.getByRole('treeitem').getAttribute('aria-expanded')).toBe('false');
    expect(treeRowTone(true)).toContain('bg-accent-soft');
    expect(treeRowTone(false)).not.toContain('bg-accent-soft');
  });
});
