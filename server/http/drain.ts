import { Server } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * A graceful stop for SIGTERM (a rolling restart, systemd's stop) that fails no request the balancer handed over:
 * 1. stop accepting: the listening socket closes, so the balancer's next connection is refused and goes to another
 *    process (nginx retries a refused connection for every method, POST included: nothing was sent);
 * 2. `DRAINING` is emitted on the HTTP server: the screens' event streams end (server/calling/screen.ts) and reconnect
 *    through the balancer elsewhere;
 * 3. after `graceMs`, idle connections are closed and the requests in flight are waited for (at most `timeoutMs`);
 * 4. then app.close() (hooks, the database's listener).
 * Node's own http.Server.close() closes idle connections at once, and a connection the balancer has just opened counts
 * as idle until its request's headers arrive: cut then, a POST whose body was on its way fails with a 502. Hence the
 * listening socket is closed as a plain net.Server first, and idle connections only after the grace.
 */
export const DRAINING = 'radws:draining';

export async function drain(app: FastifyInstance, o: { graceMs?: number; timeoutMs?: number } = {}): Promise<void> {
  const server = app.server;
  const graceMs = o.graceMs ?? 1000;
  const end = Date.now() + (o.timeoutMs ?? 30_000);
  if (server.listening) Server.prototype.close.call(server);
  server.emit(DRAINING);
  await new Promise((r) => setTimeout(r, graceMs));
  for (;;) {
    server.closeIdleConnections();
    const open = await new Promise<number>((resolve) => server.getConnections((err, n) => resolve(err ? 0 : n)));
    if (open === 0 || Date.now() > end) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  await app.close();
}
