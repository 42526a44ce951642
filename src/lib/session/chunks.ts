import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { CHUNK_LOAD_TIMEOUT_MS } from '../../../contract/constants';
import { loadAllTexts } from '../i18n';

export type ChunkErrorCode = 'ChunkLoadError' | 'CSS_CHUNK_LOAD_FAILED';

/** Core §8: a missing or timed-out code chunk is a ChunkLoadError; a failed style chunk has code CSS_CHUNK_LOAD_FAILED. */
export class ChunkLoadError extends Error {
  override readonly name = 'ChunkLoadError';
  constructor(readonly code: ChunkErrorCode, message: string) {
    super(message);
  }
}

export function isChunkLoadError(error: unknown): error is ChunkLoadError {
  return error instanceof ChunkLoadError;
}

/** Vite rejects a lazy import with "Unable to preload CSS for …" when a style chunk fails. */
export function classifyChunkFailure(error: unknown): ChunkLoadError {
  const message = error instanceof Error ? error.message : String(error);
  const css = /preload CSS|\.css\b/i.test(message);
  return new ChunkLoadError(css ? 'CSS_CHUNK_LOAD_FAILED' : 'ChunkLoadError', message);
}

/** Loads a chunk, failing with ChunkLoadError after 120 s (core §9) or on any load error. */
export function loadChunk<T>(load: () => Promise<T>, timeoutMs: number = CHUNK_LOAD_TIMEOUT_MS, timers: Pick<typeof globalThis, 'setTimeout' | 'clearTimeout'> = globalThis): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = timers.setTimeout(() => reject(new ChunkLoadError('ChunkLoadError', `Loading chunk timed out after ${timeoutMs} ms`)), timeoutMs);
    load().then(
      (value) => {
        timers.clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        timers.clearTimeout(timer);
        reject(classifyChunkFailure(error));
      },
    );
  });
}

/** A lazy screen that can be fetched ahead of being shown (`warmRoute`). */
export type LazyScreen = LazyExoticComponent<ComponentType> & { preload: () => void };

/** One load per screen, shared by React's lazy and `preload`; a failed one is forgotten so the next try loads again. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () => {
    pending ??= load().catch((error: unknown) => {
      pending = null;
      throw error;
    });
    return pending;
  };
}

/**
 * A route screen in its own chunk (route-level code splitting). It shows once its feature texts are in as well
 * (src/lib/i18n.ts `loadAllTexts`), never with raw keys; `texts: 'core'` is for a screen that needs only the
 * first-paint namespaces (the sign-in page), so it never waits for the rest.
 */
export function lazyScreen(load: () => Promise<{ default: ComponentType }>, options: { texts?: 'core' | 'all' } = {}): LazyScreen {
  const fetch = once(options.texts === 'core'
    ? () => loadChunk(load)
    : () => loadChunk(async () => {
      const [screen] = await Promise.all([load(), loadAllTexts()]);
      return screen;
    }));
  return Object.assign(lazy(fetch), { preload: () => void fetch().catch(() => undefined) });
}
