import { Column, getTableName, is, SQL, Subquery } from 'drizzle-orm';

/**
 * A prepared select's rows mapped by a mapper compiled once, instead of drizzle's mapResultRow (issue 18). drizzle
 * maps every value of every row through `is()` class checks, a path iterator and a reduce: on the worklist page
 * (≈70 columns × 20 rows) that was 17 % of the server's CPU under load, more than the socket writes. The compiled
 * mapper does the same per value with a plain loop: the decoder is picked once per column, and a column whose
 * decoder is the identity is not called at all.
 *
 * It answers exactly what drizzle's mapper answers (tests/unit/db.fastRows.test.ts compares both over joins with
 * and without a row on the joined side), including drizzle's rule for a nested object of a left-joined table: the
 * object is null when its first column is null and all its columns come from that one nullable table.
 *
 * drizzle's prepared query exposes no option for this; its own hook is the `customResultMapper` property that its
 * relational queries set, and its node-postgres and PGlite prepared queries read it on every execute. A selection
 * this does not understand (paths deeper than one object) keeps drizzle's mapper.
 */
interface SelectedField { path: string[]; field: unknown }
interface Decoder { mapFromDriverValue(value: unknown): unknown }
interface PreparedInternals {
  fields?: SelectedField[];
  joinsNotNullableMap?: Record<string, boolean>;
  customResultMapper?: (rows: unknown[][]) => unknown;
}

const identity = Column.prototype.mapFromDriverValue;

/** The decoder drizzle's mapResultRow picks for a selected field. */
function decoderOf(field: unknown): Decoder {
  // SQL's `decoder` is internal to drizzle's types; it is the object drizzle's own mapper calls.
  const decoderOfSql = (s: SQL) => (s as unknown as { decoder: Decoder }).decoder;
  if (is(field, Column)) return field;
  if (is(field, SQL)) return decoderOfSql(field);
  if (is(field, Subquery)) return decoderOfSql((field as unknown as { _: { sql: SQL } })._.sql);
  return decoderOfSql((field as SQL.Aliased).sql);
}

interface Step { index: number; key: string; group: number; decoder: Decoder | null }
/** A nested object drizzle may answer as null: when its first column is null (see the comment above). */
interface Nullable { group: number; name: string; firstKey: string }

type Row = Record<string, unknown>;

/** The row mapper for `fields`, or null when the selection has a shape this does not handle. */
export function compileRowMapper(fields: readonly SelectedField[], joinsNotNullableMap: Record<string, boolean> | undefined): ((row: unknown[]) => Row) | null {
  const groups: string[] = [];
  const steps: Step[] = [];
  /** Per group: the table of its first Column field, and whether every Column field is of that table. */
  const tables = new Map<number, { table: string; same: boolean; firstKey: string }>();
  for (const [index, { path, field }] of fields.entries()) {
    if (path.length < 1 || path.length > 2) return null;
    const decoder = decoderOf(field);
    const step: Step = { index, key: path[path.length - 1]!, group: -1, decoder: decoder.mapFromDriverValue === identity ? null : decoder };
    if (path.length === 2) {
      let group = groups.indexOf(path[0]!);
      if (group < 0) group = groups.push(path[0]!) - 1;
      step.group = group;
      if (is(field, Column)) {
        const table = getTableName(field.table);
        const known = tables.get(group);
        if (!known) tables.set(group, { table, same: true, firstKey: step.key });
        else if (known.table !== table) known.same = false;
      }
    }
    steps.push(step);
  }
  // drizzle decides by the group's first Column field (fields that are not columns take no part); a group of columns
  // from two tables is never null.
  const nullable: Nullable[] = [];
  if (joinsNotNullableMap) {
    for (const [group, t] of tables) if (t.same && !joinsNotNullableMap[t.table]) nullable.push({ group, name: groups[group]!, firstKey: t.firstKey });
  }
  const groupCount = groups.length;
  return (row) => {
    const out: Row = {};
    const objects: (Row | undefined)[] = groupCount ? new Array<Row | undefined>(groupCount) : [];
    for (let i = 0; i < steps.length; i++) {
      const s = steps[i]!;
      const raw = row[s.index];
      const value = raw === null || s.decoder === null ? raw : s.decoder.mapFromDriverValue(raw);
      if (s.group < 0) { out[s.key] = value; continue; }
      let target = objects[s.group];
      if (!target) out[groups[s.group]!] = target = objects[s.group] = {};
      target[s.key] = value;
    }
    for (const n of nullable) if (objects[n.group]![n.firstKey] === null) out[n.name] = null;
    return out;
  };
}

/** `prepared` (a drizzle prepared select) with its rows mapped by a compiled mapper; unchanged when it cannot be. */
export function withFastRows<P extends object>(prepared: P): P {
  const q = prepared as PreparedInternals;
  if (!q.fields || q.customResultMapper) return prepared;
  const map = compileRowMapper(q.fields, q.joinsNotNullableMap);
  if (map) q.customResultMapper = (rows) => rows.map(map);
  return prepared;
}
