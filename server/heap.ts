import v8 from 'node:v8';

/**
 * The server's old generation grows to twice what is live before a full collection (V8's `--heap-growing-percent`).
 *
 * Left to itself, V8 chooses the growth from how cheap its collections look; with ~60 MB live and cheap collections
 * it picked ~8 %, so a steady trickle of promoted objects (a study's files arriving, a busy worklist) restarted a full
 * collection every ~200 ms, each ~30 ms of the main thread plus concurrent marking on the others — up to half of the
 * ingest's CPU in such a run (docs/decisions.md, "Ingest: no full-collection storms"). Twice the live size costs a
 * server some tens of megabytes and keeps full collections seconds apart. Set at start, before the heap has grown;
 * V8 reads the flag each time it sizes the heap after a collection.
 */
const HEAP_GROWING_PERCENT = 100;

export function tuneHeap(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
