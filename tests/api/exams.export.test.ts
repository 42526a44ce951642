import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createGroup } from '../support/accounts';
import { bulkExams, examRows } from '../support/exams';
import { tokenOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/** POST exports/exams (core §2, §5): a real .xlsx of the list's rows, at most 3000, export_exams only. */
let s: TestServer;
let admin: string;

beforeAll(async () => {
  s = await startServer({ exams: 60 });
  admin = await tokenOf(s, 'admin');
});
afterAll(async () => { await s.close(); });

async function exportAs(token: string, body: unknown) {
  const res = await fetch(`${s.url}/api/v1/exports/exams`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

async function sheetOf(bytes: Buffer) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  const sheet = book.worksheets[0]!;
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return { name: sheet.name, header: rows[0]!, body: rows.slice(1) };
}

describe('exam export', () => {
  it('writes the filtered rows in the list order with Chinese column names by default', async () => {
    const res = await exportAs(admin, { filters: [{ field: 'modality', operator: 'equal', values: ['CT'] }, { field: 'bucketId', operator: 'equal', values: [s.ids.hospitalId] }], sorts: [] });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="exams-\d{8}-\d{4}\.xlsx"$/);
    const sheet = await sheetOf(res.bytes);
    expect(sheet.name).toBe('检查列表');
    expect(sheet.header.slice(0, 4)).toEqual(['检查ID', '机构', '姓名', '患者ID']);
    const want = (await examRows(s, [s.ids.hospitalId]))
      .filter((e) => e.modality === 'CT' && e.deletedTime === null)
      .sort((a, b) => b.created.getTime() - a.created.getTime() || b.id - a.id);
    expect(want.length).toBeGreaterThan(0);
    expect(sheet.body.map((r) => r[0])).toEqual(want.map((e) => e.id));
    expect(sheet.body[0]![2]).toBe(want[0]!.patientName);
  });

  it('names columns and codes in the asked language and writes times in the asked zone', async () => {
    const [first] = (await examRows(s, [s.ids.hospitalId])).filter((e) => e.deletedTime === null).sort((a, b) => b.created.getTime() - a.created.getTime() || b.id - a.id);
    const res = await exportAs(admin, { filters: [{ field: 'id', operator: 'equal', values: [first!.id] }], sorts: [], lang: 'en', timeZone: 'Asia/Shanghai' });
    const sheet = await sheetOf(res.bytes);
    expect(sheet.name).toBe('Exams');
    const col = (label: string) => sheet.header.indexOf(label);
    expect(sheet.header).toContain('Exam time');
    const row = sheet.body[0]!;
    expect(row[col('Gender')]).toBe({ M: 'Male', F: 'Female', O: 'Other', U: 'Unknown' }[first!.patientGender]);
    const cell = row[col('Exam time')] as Date;
    // The cell holds the wall-clock time of Shanghai (UTC+8) as its own fields.
    expect(cell.toISOString().slice(0, 16)).toBe(new Date(first!.examTime.getTime() + 8 * 3_600_000).toISOString().slice(0, 16));
    const tib = await sheetOf((await exportAs(admin, { filters: [{ field: 'id', operator: 'equal', values: [first!.id] }], sorts: [], lang: 'tib' })).bytes);
    expect(tib.header[0]).toBe('ཞིབ་བཤེར་ཨང་།');
  });

  it('exports only organisations where the caller holds export_exams', async () => {
    const expert = await tokenOf(s, 'expert');
    const res = await exportAs(expert, { filters: [], sorts: [] });
    expect(res.status).toBe(200);
    const centre = (await examRows(s, [s.ids.expertCentreId])).filter((e) => e.deletedTime === null);
    expect((await sheetOf(res.bytes)).body).toHaveLength(centre.length);
    const widened = await exportAs(expert, { filters: [{ field: 'bucketId', operator: 'equal', values: [s.ids.hospitalId] }], sorts: [] });
    expect((await sheetOf(widened.bytes)).body).toHaveLength(0);
  });

  it('is 403 without export_exams anywhere', async () => {
    for (const user of ['rad1', 'chief', 'registrar', 'tech']) {
      expect((await exportAs(await tokenOf(s, user), { filters: [], sorts: [] })).status, user).toBe(403);
    }
  });

  it('refuses more than 3000 rows with ExportTooLarge and writes exactly 3000', async () => {
    const big = await createGroup(s);
    await bulkExams(s, big.bucketId, 3001);
    const owner = await createAccount(s, { groupId: big.groupId, buckets: [{ bucketId: big.bucketId, accessLevel: 'admin' }] });
    const token = await s.login(owner.username);
    const over = await exportAs(token, { filters: [], sorts: [] });
    expect(over.status).toBe(400);
    expect(JSON.parse(over.bytes.toString()).code).toBe('ExportTooLarge');
    // The bulk exams are a minute apart, BULK1 the newest: leaving it out leaves exactly 3000.
    const olderThanNewest = new Date(s.clock.now().getTime() - 90_000).toISOString();
    const limit = await exportAs(token, { filters: [{ field: 'created', operator: 'lte', values: [olderThanNewest] }], sorts: [{ field: 'created', direction: 'asc' }] });
    expect(limit.status).toBe(200);
    const sheet = await sheetOf(limit.bytes);
    expect(sheet.body).toHaveLength(3000);
    expect(sheet.body[0]![3]).toBe('BULK3001');
    expect(sheet.body.at(-1)![3]).toBe('BULK2');
  });

  it.each([
    ['an unknown language', { filters: [], sorts: [], lang: 'fr' }],
    ['an unknown time zone', { filters: [], sorts: [], timeZone: 'Mars/Olympus' }],
    ['an unknown filter', { filters: [{ field: 'secret', operator: 'equal', values: [1] }], sorts: [] }],
    ['a paging field', { filters: [], sorts: [], skip: 5 }],
  ])('refuses %s with 400', async (_name, body) => {
    expect((await exportAs(admin, body)).status).toBe(400);
  });
});
