import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import type { Filter } from '../../contract/common';
import { EXAM_FILTER_FIELDS, type ExamFilterField } from '../../contract/exams';
import type { Db } from '../../server/db/client';
import { buildQuery } from '../../server/exams/query';

/**
 * The estimate cache's key of an exam count (server/exams/countKey.ts) is made from the request, not from the
 * statement: it must never name two different statements. Every filter field with each of its operators and a few
 * values, alone and with the worklist's snapshot filter, for two accounts, three moments and two scopes: whenever two
 * requests share a key, their count statements (text and parameters, instants to the minute as the statement keys
 * have them) are the same.
 */
const dialect = new PgDialect();
const T0 = Date.parse('2026-11-26T08:00:05Z');
const minute = (t: number) => Math.floor(t / 60_000);
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)$/;

const SAMPLES: Record<string, readonly (string | number | boolean | null)[]> = {
  int: [7, 8], text: ['王', 'CT123'], code: ['CT', 'mr'], time: ['2026-11-20T08:00:10Z', '2026-11-20T08:00:50Z', '2026-11-20T16:00:10+08:00', '2026-11-20T08:05:00Z'],
  bool: [true, false], status: ['none', 'final'], source: ['outpatient', 'inpatient'], gender: ['M', 'F'], reportSource: ['expert', 'inhouse'],
};

function filtersOf(field: ExamFilterField): Filter[][] {
  const spec = EXAM_FILTER_FIELDS[field];
  if (spec.kind === 'searchText') return [];
  const samples = SAMPLES[spec.kind]!;
  return spec.operators.flatMap((operator) => samples.map((v): Filter[] => [{ field, operator, values: operator === 'in' ? [v, samples[0]!] : [v] }]));
}

async function statementOf(filters: Filter[], scope: number[], ctx: { accountId: number; now: Date }) {
  // Without a report text search, buildQuery never reads the database.
  const q = await buildQuery(null as unknown as Db, scope, { filters, sorts: [] }, ctx);
  if (!q) return null;
  const { sql, params } = dialect.sqlToQuery(q.where);
  const cut = params.map((p) => (p instanceof Date ? minute(p.getTime()) : typeof p === 'string' && ISO.test(p) ? minute(Date.parse(p)) : p));
  return { key: q.countKey, statement: `${sql} ${JSON.stringify(cut)}` };
}

describe('the exam count key', () => {
  it('names one statement only', async () => {
    const snapshot: Filter = { field: 'created', operator: 'lte', values: ['2026-11-26T08:00:00Z'] };
    const single = (Object.keys(EXAM_FILTER_FIELDS) as ExamFilterField[]).flatMap(filtersOf);
    const inputs = [[], [snapshot], ...single, ...single.map((f) => [snapshot, ...f])];
    const seen = new Map<string, string>();
    let requests = 0;
    for (const filters of inputs) for (const accountId of [5, 6]) for (const now of [T0, T0 + 20_000, T0 + 180_000]) for (const scope of [[7], [7, 8]]) {
      let built: Awaited<ReturnType<typeof statementOf>>;
      try { built = await statementOf(filters, scope, { accountId, now: new Date(now) }); } catch { continue; } // a refused filter
      if (!built) continue;
      requests++;
      expect(built.key).not.toBeNull();
      const before = seen.get(built.key!);
      if (before !== undefined) expect(built.statement, built.key!).toBe(before);
      else seen.set(built.key!, built.statement);
    }
    expect(requests).toBeGreaterThan(1000);
    // Shared where they should be: the default view of two accounts, or opened twice in one minute.
    const a = await statementOf([snapshot], [7], { accountId: 5, now: new Date(T0) });
    const b = await statementOf([snapshot], [7], { accountId: 6, now: new Date(T0 + 20_000) });
    expect(a!.key).toBe(b!.key);
    const mine = await statementOf([{ field: 'myTasks', operator: 'equal', values: [true] }], [7], { accountId: 5, now: new Date(T0) });
    const theirs = await statementOf([{ field: 'myTasks', operator: 'equal', values: [true] }], [7], { accountId: 6, now: new Date(T0) });
    expect(mine!.key).not.toBe(theirs!.key);
  });
});
