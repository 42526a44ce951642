/**
 * Waits until `url` answers 2xx (a server the bench started as its own process is up), polling every `everyMs`;
 * throws after `withinMs`. One wait for the browser benches and the viewer benches.
 */
export async function untilAnswering(url: string, withinMs: number, everyMs = 300): Promise<void> {
  const end = Date.now() + withinMs;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`server did not start: ${url}`);
}
