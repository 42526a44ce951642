import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChunkLoadError, loadChunk } from '../../src/lib/session/chunks';

describe('loading a screen chunk (core §8, §9)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('gives the module when it arrives', async () => {
    await expect(loadChunk(async () => ({ default: 'screen' }))).resolves.toEqual({ default: 'screen' });
  });

  it('turns a failed script chunk into ChunkLoadError', async () => {
    const error = await loadChunk(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/LoginPage-x1.js'))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect((error as ChunkLoadError).code).toBe('ChunkLoadError');
  });

  it('gives CSS_CHUNK_LOAD_FAILED for a failed style chunk', async () => {
    const error = await loadChunk(() => Promise.reject(new Error('Unable to preload CSS for /assets/ProfilePage-9f.css'))).catch((e: unknown) => e);
    expect((error as ChunkLoadError).code).toBe('CSS_CHUNK_LOAD_FAILED');
  });

  it('gives up after 120 s, not before', async () => {
    let outcome: unknown = 'pending';
    loadChunk(() => new Promise(() => undefined)).catch((e: unknown) => (outcome = e));
    await vi.advanceTimersByTimeAsync(119_999);
    expect(outcome).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toBeInstanceOf(ChunkLoadError);
    expect((outcome as ChunkLoadError).code).toBe('ChunkLoadError');
  });
});
