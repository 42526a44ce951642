/** The p-th percentile (nearest rank) of ascending samples; 0 for none. Every bench prints its p50/p95 with this. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** A loopback port nobody holds right now, for a bench's own server (one function with the tests'). */
export { freePort } from '../../tests/support/ports';
