import type { SampleGraphPoint } from '../../contract/sampleGraphs';
import type { Db } from '../db/client';
import { encodePng } from '../http/png';
import { sampleGraphs } from '../db/schema';
import type { Storage } from '../storage/types';
import { storedName } from '../storage/types';

/**
 * Demo sample graphs (areas §3): two reference drawings made here by a tiny rasteriser — a body outline (front view)
 * and a breast clock-face chart — stored as PNG through the same storage as uploads, each with a few marked points.
 */

type Shape = (x: number, y: number) => number;
/** Signed distance to a capsule from (ax, ay) to (bx, by) of radius r (negative inside). */
const capsule = (ax: number, ay: number, bx: number, by: number, r: number): Shape => (x, y) => {
  const px = x - ax, py = y - ay, dx = bx - ax, dy = by - ay;
  const h = Math.max(0, Math.min(1, (px * dx + py * dy) / (dx * dx + dy * dy || 1)));
  return Math.hypot(px - dx * h, py - dy * h) - r;
};
const circle = (cx: number, cy: number, r: number): Shape => (x, y) => Math.hypot(x - cx, y - cy) - r;
const union = (...shapes: Shape[]): Shape => (x, y) => Math.min(...shapes.map((s) => s(x, y)));
const ring = (shape: Shape): Shape => (x, y) => Math.abs(shape(x, y));

/** A greyscale picture: 255 paper, lines in 60; `fill` tints the inside of `body` lightly. */
function draw(w: number, h: number, lines: Shape[], body?: Shape): Buffer {
  const px = Buffer.alloc(w * h, 255);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let v = 255;
      if (body && body(x + 0.5, y + 0.5) < 0) v = 240;
      for (const line of lines) {
        const d = line(x + 0.5, y + 0.5);
        // A 2-pixel line with a soft edge.
        const ink = Math.max(0, Math.min(1, 1.6 - Math.abs(d)));
        if (ink > 0) v = Math.min(v, Math.round(255 - ink * 195));
      }
      px[y * w + x] = v;
    }
  }
  return encodePng(w, h, 1, px, { level: 9 });
}


/** A standing figure, front view, 240×440. */
export function bodyOutline(): Buffer {
  const body = union(
    circle(120, 44, 28),
    capsule(120, 70, 120, 92, 12),
    capsule(88, 112, 152, 112, 20), capsule(120, 125, 120, 215, 38),
    capsule(72, 112, 52, 200, 12), capsule(52, 200, 44, 268, 10),
    capsule(168, 112, 188, 200, 12), capsule(188, 200, 196, 268, 10),
    capsule(104, 236, 100, 330, 17), capsule(100, 330, 98, 412, 12),
    capsule(136, 236, 140, 330, 17), capsule(140, 330, 142, 412, 12),
  );
  return draw(240, 440, [ring(body)], body);
}

/** Both breasts as clock faces with their quadrant lines, 400×210. */
export function breastChart(): Buffer {
  const lines: Shape[] = [];
  for (const cx of [105, 295]) {
    lines.push(ring(circle(cx, 105, 88)), ring(circle(cx, 105, 10)));
    lines.push(capsule(cx - 88, 105, cx - 12, 105, 0), capsule(cx + 12, 105, cx + 88, 105, 0));
    lines.push(capsule(cx, 17, cx, 93, 0), capsule(cx, 117, cx, 193, 0));
  }
  return draw(400, 210, lines);
}

const DEMO: { name: string; origin: string; png: () => Buffer; points: SampleGraphPoint[] }[] = [
  {
    name: '人体正面示意图', origin: '全身', png: bodyOutline,
    points: [
      { x: 0.42, y: 0.3, color: '#e03131', label: '右上肺' },
      { x: 0.58, y: 0.47, color: '#1971c2', label: '肝区' },
    ],
  },
  {
    name: '乳腺钟面分区图', origin: '乳腺', png: breastChart,
    points: [{ x: 0.34, y: 0.3, color: '#e03131', label: '右乳 1 点' }],
  },
];

export async function seedSampleGraphs(db: Db, storage: Storage, opts: { bucketId: number; createdBy: number; now: Date }): Promise<void> {
  let sortIndex = 0;
  for (const graph of DEMO) {
    const key = `sample-graphs/${opts.bucketId}/${storedName('png')}`;
    await storage.put(key, graph.png(), { contentType: 'image/png' });
    sortIndex += 1;
    await db.insert(sampleGraphs).values({
      bucketId: opts.bucketId, name: graph.name, origin: graph.origin, url: key, points: graph.points, sortIndex,
      createdBy: opts.createdBy, created: opts.now,
    });
  }
}
