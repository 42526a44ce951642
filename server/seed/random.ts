import { randomBytes } from 'node:crypto';

/** A small seeded PRNG (mulberry32) so demo data is the same on every machine. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    chance: (p: number) => next() < p,
  };
}
export type Rng = ReturnType<typeof rng>;

/** The product's DICOM UID root: the demo's studies hang off it (and the files it writes name it, server/seed/dicom). */
export const UID_ROOT = '1.2.826.0.1.3680043.8.498';

/**
 * A demo Study Instance UID: 96 random bits (crypto, top bit set, so always 29 digits) under the root, 55 characters,
 * leaving room for the series and instance arcs the demo images add (".1.8"). Nothing the worklist shows (organisation,
 * time, exam id, a counter) goes into it, so no one can work out the UID of an exam from it (docs/decisions.md).
 */
export function randomStudyUid(): string {
  const bytes = randomBytes(12);
  bytes[0] = (bytes[0] ?? 0) | 0x80;
  return `${UID_ROOT}.${BigInt(`0x${bytes.toString('hex')}`).toString()}`;
}

/**
 * The same in SQL for the benchmark seeds, per row: 29 random digits under the root (the first not 0). Like
 * randomStudyUid, made of nothing the row shows.
 */
export const RANDOM_STUDY_UID_SQL = `'${UID_ROOT}.' || (1 + floor(random() * 9))::int::text`
  + ` || lpad(floor(random() * 1e14)::bigint::text, 14, '0') || lpad(floor(random() * 1e14)::bigint::text, 14, '0')`;
