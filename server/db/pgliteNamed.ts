import { parse, protocol, type PGlite, type QueryOptions, type Results } from '@electric-sql/pglite';

type BackendMessage = Parameters<typeof parse.parseResults>[0][number];
type ParserTable = Parameters<typeof parse.parseResults>[1];

/**
 * Named statements on PGlite. PGlite's `query` sends every statement as an unnamed one (Parse, Describe, Bind,
 * Describe, Execute, Sync: six calls into its WASM), so PostgreSQL parses, analyses and plans it again each time. In
 * WASM that is most of a small statement's cost: the upload permit's two-table read took 0.65 ms, of which a named
 * statement leaves 0.09 ms, the cost of `select 1` (issue 18, docs/decisions.md). The statements made by preparedOnce
 * (server/db/preparedOnce.ts) are therefore parsed once per PGlite client under a name of their own, and each run is
 * one call: Bind, Execute, Sync.
 *
 * PostgreSQL keeps its default plan_cache_mode (auto) here: a named statement is planned with its values for its first
 * five runs and keeps a generic plan only when that plan costs no more, as node-postgres's named statements do on
 * PostgreSQL; force_generic_plan is a session setting, and PGlite has one session for every statement.
 *
 * A statement keeps its name for the client's life: PostgreSQL plans it again by itself when a table it reads changes,
 * and the server changes no table's columns after its migrations ran at start.
 *
 * A run answers what PGlite's `query` answers: the parameters are written by the same serializers, picked by the
 * types PostgreSQL described for the statement, and the rows are read by PGlite's own parseResults with the client's
 * parsers (tests/unit/db.pgliteNamed.test.ts compares both).
 */

/** The SQL texts of the statements made by preparedOnce: the same text on every client of this process. */
const namedTexts = new Set<string>();

export function nameOnPglite(text: string): void {
  namedTexts.add(text);
}

export function isNamedOnPglite(text: string): boolean {
  return namedTexts.has(text);
}

interface Named {
  name: string;
  paramTypes: number[];
  /** The statement's row description; none for a statement that returns no rows. */
  rowDescription: BackendMessage[];
}

/** PGlite's own tables and locks, which its `query` uses and its public interface does not name. */
interface PgliteInternals {
  parsers: ParserTable;
  serializers: NonNullable<QueryOptions['serializers']>;
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
}

const statementsByClient = new WeakMap<PGlite, Map<string, Named>>();

const serialize = protocol.serialize;

/** The statement under its name on this client: parsed and described on its first run (under PGlite's query lock). */
async function namedOn(client: PGlite, text: string): Promise<Named> {
  let byText = statementsByClient.get(client);
  if (!byText) statementsByClient.set(client, (byText = new Map()));
  const known = byText.get(text);
  if (known) return known;
  const name = `pglite_named_${byText.size + 1}`;
  const messages = await client.execProtocolStream(Buffer.concat([
    serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync(),
  ]), { syncToFs: false });
  // Only a statement PostgreSQL accepted is remembered: a failed Parse leaves no statement of that name behind.
  const named: Named = {
    name,
    paramTypes: parse.parseDescribeStatementResults(messages),
    rowDescription: messages.filter((m) => m.name === 'rowDescription'),
  };
  byText.set(text, named);
  return named;
}

async function run(client: PGlite, text: string, params: unknown[], options: QueryOptions | undefined): Promise<Results> {
  const internals = client as unknown as PgliteInternals;
  const named = await namedOn(client, text);
  const values = params.map((value, i) => {
    if (value === null || value === undefined) return null;
    const type = named.paramTypes[i]!;
    const write = options?.serializers?.[type] ?? internals.serializers[type];
    return write ? write(value) : String(value);
  });
  try {
    const messages = await client.execProtocolStream(Buffer.concat([
      serialize.bind({ statement: named.name, values }), serialize.execute({}), serialize.sync(),
    ]), { syncToFs: false });
    const parsed = parse.parseResults([...named.rowDescription, ...messages], internals.parsers, options);
    return parsed[0] as Results;
  } catch (err) {
    // As PGlite's query does: the failed statement and its values go with the error.
    if (err instanceof Error) Object.assign(err, { query: text, params, queryOptions: options });
    throw err;
  }
}

/** A named statement's run outside a transaction: it waits for any open transaction, as PGlite's `query` does. */
export async function queryNamed(client: PGlite, text: string, params: unknown[], options?: QueryOptions): Promise<Results> {
  await client.waitReady;
  const internals = client as unknown as PgliteInternals;
  return internals._runExclusiveTransaction(async () => {
    const result = await internals._runExclusiveQuery(() => run(client, text, params, options));
    await client.syncToFs();
    return result;
  });
}

/** A named statement's run inside the open transaction (which holds PGlite's transaction lock already). */
export function queryNamedInTransaction(client: PGlite, text: string, params: unknown[], options?: QueryOptions): Promise<Results> {
  const internals = client as unknown as PgliteInternals;
  return internals._runExclusiveQuery(() => run(client, text, params, options));
}
