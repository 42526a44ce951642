/**
 * Core §4: logging out clears "all module state". Features that keep state outside React
 * (caches, drafts, last-seen ids kept in memory) register a reset here; the session calls them all.
 */
const resets = new Set<() => void>();

export function registerModuleReset(reset: () => void): () => void {
  resets.add(reset);
  return () => resets.delete(reset);
}

export function resetModuleState(): void {
  for (const reset of resets) {
    try {
      reset();
    } catch (err) {
      // One feature's broken reset must not keep the others' data alive.
      console.error('module reset failed', err);
    }
  }
}
