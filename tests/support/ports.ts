import { connect, createServer } from 'node:net';

/**
 * Loopback ports for the servers a test or bench starts itself (storescp, Orthanc, a second product process): one
 * nobody holds right now, and a wait until something listens there. The peers are real programs, so their start is
 * waited for by connecting, not by a sleep.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Resolves once a TCP connection to the loopback port succeeds (the caller's test limit bounds the wait). */
export async function listening(port: number): Promise<void> {
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const c = connect(port, '127.0.0.1', () => { c.destroy(); resolve(true); });
      c.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
