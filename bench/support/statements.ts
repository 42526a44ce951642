import type { Database } from '../../server/db/client';

/** One statement the driver ran: its text and parameters. */
export type Statement = { text: string; params: unknown[] };

/**
 * Records the statements the driver runs while on (both drivers take the text first and the parameters second), for
 * a bench's `--explain`: `start`, the requests, `stop` gives what ran, `explain` runs one under EXPLAIN with `options`.
 */
export function statementRecorder(database: Database, options = 'analyze, costs off') {
  const client = (database.db as unknown as { $client: { query: (...args: unknown[]) => Promise<unknown> } }).$client;
  const original = client.query.bind(client);
  const seen: Statement[] = [];
  let on = false;
  client.query = (...args: unknown[]) => {
    if (on) {
      const first = args[0] as string | { text: string };
      seen.push({ text: typeof first === 'string' ? first : first.text, params: (args[1] as unknown[] | undefined) ?? [] });
    }
    return original(...args);
  };
  return {
    start: () => { seen.length = 0; on = true; },
    stop: () => { on = false; return [...seen]; },
    explain: async (s: Statement) => {
      const result = await original(`explain (${options}) ${s.text}`, s.params) as { rows: Record<string, unknown>[] };
      return result.rows.map((r) => Object.values(r)[0]).join('\n');
    },
  };
}
