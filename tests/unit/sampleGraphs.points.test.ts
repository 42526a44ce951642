import { describe, expect, it } from 'vitest';
import { preIdFor } from '../../src/features/admin/organization/sampleGraphs/api';
import { clamp, cycled, moved, pct, pointNear, samePoints } from '../../src/features/admin/organization/sampleGraphs/points';
import { contrastRatio, mixOklab, parseHex, READABLE_RATIO, ruleContrast, toHex } from '../../src/features/admin/group/settings/colourContrast';

describe('sample graph editor rules', () => {
  it('moves the crosshair in steps, Shift in big steps, never off the drawing', () => {
    expect(moved({ x: 0.5, y: 0.5 }, 'ArrowRight', false)).toEqual({ x: 0.51, y: 0.5 });
    expect(moved({ x: 0.5, y: 0.5 }, 'ArrowUp', true)).toEqual({ x: 0.5, y: 0.45 });
    expect(moved({ x: 0.005, y: 0.98 }, 'ArrowLeft', false)).toEqual({ x: 0, y: 0.98 });
    expect(moved({ x: 0.5, y: 0.98 }, 'ArrowDown', true)).toEqual({ x: 0.5, y: 1 });
    expect(moved({ x: 0.5, y: 0.5 }, 'Enter', false)).toBeNull();
    let at = { x: 0.5, y: 0.5 };
    for (let i = 0; i < 3; i++) at = moved(at, 'ArrowRight', false)!;
    expect(at.x).toBe(0.53);
    expect(pct(at.x)).toBe('53%');
    expect(clamp(-2)).toBe(0);
  });

  it('walks the points with Tab and lets Tab leave after the last (Shift+Tab before the first)', () => {
    expect(cycled(0, null, false)).toBeNull();
    expect(cycled(3, null, false)).toBe(0);
    expect(cycled(3, null, true)).toBe(2);
    expect(cycled(3, 1, false)).toBe(2);
    expect(cycled(3, 2, false)).toBeNull();
    expect(cycled(3, 0, true)).toBeNull();
  });

  it('finds the point under a click within its radius, the nearest first', () => {
    const points = [{ x: 0.1, y: 0.1, color: '#e03131' }, { x: 0.12, y: 0.1, color: '#e03131' }];
    expect(pointNear(points, { x: 0.115, y: 0.1 }, { x: 0.02, y: 0.02 })).toBe(1);
    expect(pointNear(points, { x: 0.5, y: 0.5 }, { x: 0.02, y: 0.02 })).toBeNull();
    expect(samePoints(points, points.map((p) => ({ ...p, color: p.color.toUpperCase() })))).toBe(true);
    expect(samePoints(points, [points[0]!])).toBe(false);
  });

  it('turns a move up or down into the preId the server takes', () => {
    expect(preIdFor([1, 2, 3], 3, -1)).toBe(1);
    expect(preIdFor([1, 2, 3], 2, -1)).toBeNull();
    expect(preIdFor([1, 2, 3], 1, 1)).toBe(2);
    expect(preIdFor([1, 2, 3], 1, -1)).toBeUndefined();
    expect(preIdFor([1, 2, 3], 3, 1)).toBeUndefined();
  });
});

describe('colour rule contrast', () => {
  const light = { surface: parseHex('#ffffff')!, fg: parseHex('#17202b')! };
  const dark = { surface: parseHex('#141920')!, fg: parseHex('#d5dbe3')! };

  it('reads #rgb, #rrggbb and #rrggbbaa and mixes as CSS color-mix in OKLab', () => {
    expect(parseHex('#abc')).toEqual([0xaa, 0xbb, 0xcc]);
    expect(parseHex('#00ff0080')).toEqual([0, 255, 0]);
    expect(parseHex('red')).toBeNull();
    expect(toHex(mixOklab([255, 0, 0], 1, [0, 0, 255]))).toBe('#ff0000');
    expect(toHex(mixOklab([0, 0, 0], 0, [255, 255, 255]))).toBe('#ffffff');
    expect(contrastRatio([0, 0, 0], [255, 255, 255])).toBeCloseTo(21, 5);
  });

  it('passes dark text on a pale tint and warns for light text on it, per theme', () => {
    expect(ruleContrast({ fore: '#991b1b', back: '#00c853' }, light)).toBeGreaterThan(READABLE_RATIO);
    expect(ruleContrast({ fore: '#00ff66', back: '#00c853' }, light)).toBeLessThan(READABLE_RATIO);
    // In the dark theme a light text colour reads, a dark one does not.
    expect(ruleContrast({ fore: '#fff59d', back: null }, dark)).toBeGreaterThan(READABLE_RATIO);
    expect(ruleContrast({ fore: '#1a1a1a', back: null }, dark)).toBeLessThan(READABLE_RATIO);
  });
});
