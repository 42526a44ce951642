/**
 * The rows of one worklist view, fetched in pages of 20 (core §9) as the user scrolls or moves. The list is
 * virtualised over the view's total, so pages can be missing anywhere: the cache says which positions it holds,
 * fetches the pages a range needs (nearest to the range first, a few at a time), and forgets requests a newer
 * range no longer needs. A small external store for useSyncExternalStore; no React inside, so it is tested alone.
 */
import type { Page } from '../../../contract/common';

export type FetchPage<T> = (skip: number, limit: number, signal: AbortSignal) => Promise<Page<T>>;

export interface PageCacheOptions {
  pageSize: number;
  /** Requests in flight at once; more would only queue on the server (PGlite serves one query at a time). */
  concurrency?: number;
}

export type CacheStatus = 'idle' | 'loading' | 'ready' | 'error';

export class PageCache<T> {
  private pages = new Map<number, T[]>();
  private inFlight = new Map<number, AbortController>();
  private queue: number[] = [];
  private listeners = new Set<() => void>();
  private version = 0;
  private disposed = false;
  /** The range last asked for, fetched again by retry(). */
  private wantedRange: [number, number] | null = null;
  private readonly pageSize: number;
  private readonly concurrency: number;
  /** Null until the first page answers. */
  total: number | null = null;
  status: CacheStatus = 'idle';
  error: unknown = null;

  constructor(
    private readonly fetchPage: FetchPage<T>,
    options: PageCacheOptions,
  ) {
    this.pageSize = options.pageSize;
    this.concurrency = options.concurrency ?? 3;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = (): number => this.version;

  /** The row at a position of the view, if its page has arrived. */
  rowAt(index: number): T | undefined {
    return this.pages.get(Math.floor(index / this.pageSize))?.[index % this.pageSize];
  }

  /** Position of the first loaded row that satisfies `test`, searching outwards from `near`. */
  findIndex(test: (row: T) => boolean, near = 0): number {
    let best = -1;
    for (const [page, rows] of this.pages) {
      rows.forEach((row, i) => {
        const index = page * this.pageSize + i;
        if (test(row) && (best < 0 || Math.abs(index - near) < Math.abs(best - near))) best = index;
      });
    }
    return best;
  }

  /** The longest run of loaded rows around `index`, with the position of its first row. */
  loadedRun(index: number): { offset: number; rows: T[] } {
    let first = Math.floor(index / this.pageSize);
    if (!this.pages.has(first)) return { offset: index, rows: [] };
    while (this.pages.has(first - 1)) first -= 1;
    const rows: T[] = [];
    for (let page = first; this.pages.has(page); page += 1) rows.push(...this.pages.get(page)!);
    return { offset: first * this.pageSize, rows };
  }

  /**
   * Asks for the rows from `from` to `to` (inclusive); pages already held or under way are not fetched again.
   * After a failure nothing is fetched until retry(): the screen re-renders on every change of the cache and asks
   * again, and a failure that asked again at once looped as fast as the server could answer.
   */
  ensure(from: number, to: number): void {
    if (this.disposed) return;
    this.wantedRange = [from, to];
    if (this.status === 'error') return;
    const last = this.total === null ? Math.max(from, 0) : Math.min(to, this.total - 1);
    const firstPage = Math.floor(Math.max(from, 0) / this.pageSize);
    const lastPage = Math.floor(Math.max(last, 0) / this.pageSize);
    const centre = (from + to) / 2 / this.pageSize;
    const wanted: number[] = [];
    for (let page = firstPage; page <= lastPage; page++) if (!this.pages.has(page)) wanted.push(page);
    wanted.sort((a, b) => Math.abs(a - centre) - Math.abs(b - centre));
    // A newer range replaces the older one: its queued pages and its requests in flight outside this range go.
    for (const [page, controller] of this.inFlight) {
      if (!wanted.includes(page)) {
        controller.abort();
        this.inFlight.delete(page);
      }
    }
    this.queue = wanted.filter((page) => !this.inFlight.has(page));
    this.pump();
  }

  /** Fetches again, after a failure, the range last asked for (the rows already held stay). */
  retry(): void {
    if (this.disposed || this.status !== 'error') return;
    this.status = this.total === null ? 'idle' : 'ready';
    this.error = null;
    this.changed();
    if (this.wantedRange) this.ensure(...this.wantedRange);
  }

  /** Keeps rows fetched elsewhere with the same query (whole pages only, from a page boundary). */
  keep(skip: number, rows: readonly T[]): void {
    if (this.disposed || skip % this.pageSize !== 0) return;
    let added = false;
    for (let offset = 0; offset + this.pageSize <= rows.length; offset += this.pageSize) {
      const page = (skip + offset) / this.pageSize;
      if (!this.pages.has(page)) {
        this.pages.set(page, rows.slice(offset, offset + this.pageSize));
        added = true;
      }
    }
    if (added) this.changed();
  }

  /** Forgets every row; the next ensure() fetches again (refresh keeps the positions the screen shows). */
  clear(): void {
    for (const controller of this.inFlight.values()) controller.abort();
    this.inFlight.clear();
    this.queue = [];
    this.pages.clear();
    this.total = null;
    this.status = 'idle';
    this.error = null;
    this.changed();
  }

  dispose(): void {
    this.disposed = true;
    for (const controller of this.inFlight.values()) controller.abort();
    this.inFlight.clear();
    this.queue = [];
    this.listeners.clear();
  }

  private pump() {
    while (this.inFlight.size < this.concurrency && this.queue.length > 0) {
      const page = this.queue.shift()!;
      const controller = new AbortController();
      this.inFlight.set(page, controller);
      if (this.status !== 'ready') this.status = 'loading';
      this.fetchPage(page * this.pageSize, this.pageSize, controller.signal).then(
        (result) => {
          if (controller.signal.aborted || this.disposed) return;
          this.inFlight.delete(page);
          this.pages.set(page, result.items);
          this.total = result.total;
          this.status = 'ready';
          this.error = null;
          this.changed();
          this.pump();
        },
        (error: unknown) => {
          if (controller.signal.aborted || this.disposed) return;
          this.inFlight.delete(page);
          this.status = 'error';
          this.error = error;
          // Pages still queued would fail the same way; the screen offers a retry.
          this.queue = [];
          this.changed();
        },
      );
    }
  }

  private changed() {
    this.version += 1;
    for (const listener of [...this.listeners]) listener();
  }
}
