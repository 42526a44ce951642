// @vitest-environment jsdom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { pageRange, turnedPage, useHeldRow, useListPaging } from '@/lib/listPage';

afterEach(cleanup);

describe('useListPaging: the page belongs to its filters', () => {
  it('keeps the page under the same filters and starts again at the first under new ones', () => {
    const { result, rerender } = renderHook(({ key }) => useListPaging(key), { initialProps: { key: 'a' } });
    expect(result.current.skip).toBe(0);
    act(() => result.current.setSkip(40));
    expect(result.current.skip).toBe(40);
    rerender({ key: 'b' });
    expect(result.current.skip).toBe(0);
    rerender({ key: 'a' });
    expect(result.current.skip).toBe(40);
  });
});

describe('useHeldRow: the row in hand', () => {
  it('moves within the rows, stays inside them, and lets go on another page', () => {
    const rows = ['x', 'y', 'z'];
    const { result, rerender } = renderHook(({ key, list }) => useHeldRow(key, list), { initialProps: { key: 'p1', list: rows } });
    expect(result.current.active).toBeNull();
    act(() => result.current.move(1));
    expect(result.current.active).toBe(0);
    act(() => result.current.move(-1));
    expect(result.current.active).toBe(0);
    act(() => result.current.move(-1));
    act(() => { result.current.hold(2); });
    expect(result.current.activeRow).toBe('z');
    expect(result.current.holding).toBe(true);
    rerender({ key: 'p1', list: ['x'] });
    expect(result.current.active).toBe(0);
    rerender({ key: 'p2', list: rows });
    expect(result.current.active).toBeNull();
    expect(result.current.holding).toBe(false);
  });

  it('↑ with nothing in hand takes the last row', () => {
    const { result } = renderHook(() => useHeldRow('p', ['a', 'b', 'c']));
    act(() => result.current.move(-1));
    expect(result.current.active).toBe(2);
  });
});

describe('pageRange', () => {
  it('says from–to of total, 0–0 for none, nothing before the first answer', () => {
    expect(pageRange(45, 20, 20)).toEqual({ from: 21, to: 40, total: 45 });
    expect(pageRange(0, 0, 0)).toEqual({ from: 0, to: 0, total: 0 });
    expect(pageRange(null, 0, 0)).toBeNull();
  });
});

describe('turnedPage: a page held in the address', () => {
  it('turns by a page, not before the first nor past the last row', () => {
    expect(turnedPage(0, 1, 25, 60)).toBe(25);
    expect(turnedPage(50, 1, 25, 60)).toBeNull();
    expect(turnedPage(25, -1, 25, 60)).toBe(0);
    expect(turnedPage(0, -1, 25, 60)).toBeNull();
    expect(turnedPage(10, -1, 25, 60)).toBe(0);
    expect(turnedPage(0, 1, 25, 0)).toBeNull();
  });
});

describe('useHeldRow over links', () => {
  it('focuses what stands for the row (a link) when it moves', () => {
    const { result } = renderHook(() => useHeldRow<string, HTMLAnchorElement>('p', ['a', 'b']));
    const links = ['a', 'b'].map((name) => {
      const link = document.createElement('a');
      link.href = `#${name}`;
      document.body.append(link);
      return link;
    });
    result.current.rowRefs.current = links;
    act(() => result.current.move(1));
    act(() => result.current.move(1));
    expect(result.current.active).toBe(1);
    expect(document.activeElement).toBe(links[1]);
    links.forEach((link) => link.remove());
  });
});
