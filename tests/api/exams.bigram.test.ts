import { inArray, sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nameSearchForms } from '../../contract/dicom/personName';
import type { ExamPage } from '../../contract/exams';
import * as t from '../../server/db/schema';
import { compileFilters as examFilters } from '../../server/exams/filters';
import { containsPattern } from '../../server/http/pageQuery';
import { compileFilters as registryFilters } from '../../server/registry/filters';
import { GIVEN, SURNAMES } from '../../server/seed/clinical';
import { tokenOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/**
 * Two-character search (issue 18): the worklist's patientName `like` and the registry desk's search now carry a
 * bigram condition (server/http/bigrams.ts) that GIN indexes answer. They must find exactly the rows the plain ILIKE
 * scan of before finds, for every kind of query: 1, 2 and 3+ characters, Latin names in any case, the DICOM forms
 * (Wang^XiaoDong, 王^小东), spaces (ASCII and ideographic), LIKE's own characters and odd letters. The new
 * condition is checked as planned (small table: a scan) and with sequential scans off (the indexes' answer).
 */
let s: TestServer;
let ids: number[] = [];

const ODD_NAMES = [
  '李明', '李明华', '张李明', '李^明', '李 明', '李　明', '明李', '王小东', '王^小东', 'Wang XiaoDong=王小东', 'Wang^XiaoDong=王^小东',
  'WANG XIAODONG', "O'Brien Seán", 'Ünal Çelik', 'ÜNAL', 'Σίσυφος', '100%_李', 'a\\b明', '李\t明', '李  明', 'Li Ming', 'li^ming', 'LIMING', 'x', '李',
];
/** Queries: trimmed by the server, so ' 李明 ' is 李明. */
const QUERIES = [
  '李', '明', '李明', ' 李明 ', '明华', '李明华', '张李明', '王小东', '小东', '王 小东', '李 明', '李　明', '李^明', 'Wang XiaoDong', 'wang xiaodong',
  'xiaodong', 'XD', 'ao', 'li', 'Li Ming', 'liming', 'ün', 'ÜN', 'çe', 'ΣΊ', 'σί', "o'b", '100%', '%', '_', '%_', 'a\\b', '\\', '建国', '国', 'ZZ', '无此人',
];
/** Registry search: name, patient id, phone and accession number. */
const REGISTRY_QUERIES = ['李明', '13', '38', 'AB', 'ab', '李', '明华', 'P0', '0012', '小东', 'x%', '%1', 'Zz', '王 ', '　李'];

beforeAll(async () => {
  s = await startServer({ exams: 20 });
  // A seeded dataset: generated Chinese names as the bench makes them, plus the odd ones; a third are desk lines
  // (registration_id set) with a phone and an accession number.
  let seed = 7;
  const rnd = (n: number) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  const names = [...ODD_NAMES];
  for (let i = 0; i < 400; i++) names.push(SURNAMES[rnd(SURNAMES.length)]! + GIVEN[rnd(GIVEN.length)]! + (rnd(10) < 6 ? GIVEN[rnd(GIVEN.length)]! : ''));
  const rows = await s.db.db.insert(t.exams).values(names.map((patientName, i) => ({
    bucketId: i % 5 === 4 ? s.ids.expertCentreId : s.ids.hospitalId,
    patientName, patientId: `P${String(1000 + rnd(90000)).padStart(6, '0')}${i % 7 === 0 ? 'ab' : ''}`,
    modality: 'CT', examTime: s.clock.now(), created: s.clock.now(),
    registrationId: i % 3 === 0 ? 900000 + i : null,
    patientPhone: i % 3 === 0 ? `13${String(rnd(1e9)).padStart(9, '0')}` : null,
    accessionNumber: i % 2 === 0 ? `A${i % 11 === 0 ? 'Zz' : ''}${String(rnd(1e6)).padStart(6, '0')}` : null,
  }))).returning({ id: t.exams.id });
  ids = rows.map((r) => r.id);
  await s.db.db.execute(sql`analyze exams`);
});
afterAll(async () => { await s?.close(); });

const now = () => s.clock.now();

async function idsWhere(where: SQL, opts: { indexOnly?: boolean } = {}): Promise<number[]> {
  const run = async (db: typeof s.db.db) => {
    const rows = await db.select({ id: t.exams.id }).from(t.exams).where(sql`${inArray(t.exams.id, ids)} and ${where}`);
    return rows.map((r) => r.id).sort((a, b) => a - b);
  };
  if (!opts.indexOnly) return run(s.db.db);
  return s.db.db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    return run(tx as unknown as typeof s.db.db);
  });
}

async function plan(where: SQL): Promise<string> {
  return s.db.db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    const result = await tx.execute(sql`explain select id from exams where ${where}`);
    return (result as unknown as { rows: Record<string, string>[] }).rows.map((r) => Object.values(r)[0]).join('\n');
  });
}

/** Today's worklist condition: one ILIKE per name form, nothing else. */
function plainNameScan(query: string): SQL {
  const forms = nameSearchForms(query);
  return sql`(${sql.join(forms.map((f) => sql`${t.exams.patientName} ilike ${containsPattern(f)}`), sql` or `)})`;
}

function newNameCondition(query: string): SQL {
  const { conditions } = examFilters([{ field: 'patientName', operator: 'like', values: [query] }], { accountId: 0, now: now() });
  return sql.join(conditions, sql` and `);
}

describe('worklist patient name: bigram plan = plain ILIKE scan', () => {
  it.each(QUERIES)('same rows for %j, as planned and from the indexes', async (query) => {
    const expected = await idsWhere(plainNameScan(query));
    expect(await idsWhere(newNameCondition(query))).toEqual(expected);
    expect(await idsWhere(newNameCondition(query), { indexOnly: true })).toEqual(expected);
  });

  it('finds what it should (the comparison is not between two empty lists)', async () => {
    const byName = async (q: string) => (await s.db.db.select({ name: t.exams.patientName }).from(t.exams).where(sql`${inArray(t.exams.id, ids)} and ${newNameCondition(q)}`)).map((r) => r.name);
    expect(await byName('李明')).toEqual(expect.arrayContaining(['李明', '李明华', '张李明', '李^明']));
    expect(await byName('李明')).not.toContain('李 明');
    expect(await byName('李 明')).toEqual(expect.arrayContaining(['李 明', '李^明']));
    expect(await byName('wang xiaodong')).toEqual(expect.arrayContaining(['WANG XIAODONG', 'Wang XiaoDong=王小东', 'Wang^XiaoDong=王^小东']));
    expect(await byName('ün')).toEqual(expect.arrayContaining(['Ünal Çelik', 'ÜNAL']));
    expect(await byName('%_')).toEqual(['100%_李']);
  });

  it('2 characters and more are answered by the bigram index; 1 character has no bigram condition', async () => {
    expect(await plan(newNameCondition('李明'))).toContain('exams_name_bigrams');
    expect(await plan(newNameCondition('Li Ming'))).toMatch(/exams_name_bigrams|exams_patient_name_trgm/);
    expect(await plan(newNameCondition('李'))).not.toContain('exams_name_bigrams');
  });

  it('the page query answers the same rows as the plain scan, in every organisation of the caller', async () => {
    const token = await tokenOf(s, 'admin');
    for (const query of ['李明', '小东', 'xiaodong', '明']) {
      const res = await s.request('POST', 'exams/page-query', { token, body: { filters: [{ field: 'patientName', operator: 'like', values: [query] }], limit: 200 } });
      expect(res.status).toBe(200);
      const page = res.body as ExamPage;
      const got = page.items.map((e) => e.id).filter((id) => ids.includes(id)).sort((a, b) => a - b);
      expect(got, query).toEqual(await idsWhere(plainNameScan(query)));
      expect(got.length, query).toBeGreaterThan(0);
    }
  });
});

describe('registry search: bigram plan = plain ILIKE scan of name, patient id, phone and accession number', () => {
  const deskRows = sql`${t.exams.deletedTime} is null and ${t.exams.registrationId} is not null`;
  function plainSearch(query: string): SQL {
    const p = containsPattern(query.trim());
    return sql`${t.exams.orderId} is null and (${t.exams.patientName} ilike ${p} or ${t.exams.patientId} ilike ${p} or ${t.exams.patientPhone} ilike ${p} or ${t.exams.accessionNumber} ilike ${p})`;
  }
  const newSearch = (query: string) => sql.join(registryFilters([{ field: 'search', operator: 'like', values: [query] }]), sql` and `);

  it.each(REGISTRY_QUERIES)('same rows for %j, as planned and from the indexes', async (query) => {
    const expected = await idsWhere(sql`${deskRows} and ${plainSearch(query)}`);
    expect(await idsWhere(sql`${deskRows} and ${newSearch(query)}`)).toEqual(expected);
    expect(await idsWhere(sql`${deskRows} and ${newSearch(query)}`, { indexOnly: true })).toEqual(expected);
  });

  it('a 2-character search is answered by the desk bigram index and finds rows', async () => {
    expect(await plan(sql`${deskRows} and ${newSearch('李明')}`)).toContain('exams_registry_search_bigrams');
    expect((await idsWhere(sql`${deskRows} and ${newSearch('13')}`)).length).toBeGreaterThan(0);
  });
});
