/**
 * Buffers for whole uploaded files, used again from one file to the next (issue 18, the ingest against Orthanc).
 *
 * A file's buffer lives while it is written and its row inserted (tens of milliseconds at 4 files in flight), long
 * enough for V8 to move it to the old generation; its memory, outside V8's heap, is then given back only by a full
 * mark-compact. At ~0.5 MB per CT slice, new buffers made V8 run a mark-compact every few hundred milliseconds under
 * load. Buffers taken from here are handed back when the file is done, so a study's files reuse a handful of them.
 *
 * Sizes are rounded up to a power of two (a study's files are all one size, or nearly); files above `largest` are
 * never pooled, and at most `keepBytes` wait here in all.
 */
export interface PooledBuffer {
  /** Exactly the asked length. Old bytes of another file lie beyond it and before they are overwritten: read only what was written. */
  bytes: Buffer;
  /** Gives the buffer back; `bytes` must not be read or written afterwards. A second call does nothing. */
  release(): void;
}

export interface BufferPool {
  take(length: number): PooledBuffer;
  /** Bytes waiting in the pool (tests). */
  readonly pooledBytes: number;
}

const SMALLEST = 64 * 1024;

export function createBufferPool(opts: { largest?: number; keepBytes?: number } = {}): BufferPool {
  const largest = opts.largest ?? 8 * 1024 * 1024;
  const keepBytes = opts.keepBytes ?? 32 * 1024 * 1024;
  const free = new Map<number, Buffer[]>();
  let pooledBytes = 0;

  const classOf = (length: number) => {
    let size = SMALLEST;
    while (size < length) size *= 2;
    return size;
  };

  return {
    get pooledBytes() { return pooledBytes; },
    take(length) {
      if (length > largest) return { bytes: Buffer.allocUnsafe(length), release: () => undefined };
      const size = classOf(length);
      const list = free.get(size);
      const whole = list?.pop();
      if (whole) pooledBytes -= size;
      const buffer = whole ?? Buffer.allocUnsafeSlow(size);
      let released = false;
      return {
        bytes: buffer.subarray(0, length),
        release() {
          if (released) return;
          released = true;
          if (pooledBytes + size > keepBytes) return;
          const into = free.get(size) ?? [];
          free.set(size, into);
          into.push(buffer);
          pooledBytes += size;
        },
      };
    },
  };
}
