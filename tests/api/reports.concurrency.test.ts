import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { act, detail, examRow, reportIn, reportRow, tracesOf, type ReportRef } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/**
 * Many people acting on one report at once (on PostgreSQL truly in parallel; PGlite queues them): one
 * consistent end state, a trace that explains how it got there, no 500, and no accepted text lost.
 */
let s: TestServer;
beforeAll(async () => { s = await startServer({ exams: 5 }); });
afterAll(async () => { await s.close(); });

type Answer = Awaited<ReturnType<typeof act>>;

/** The traces after `since` form one chain: each starts where the previous ended, versions one apart. */
async function expectTraceChain(r: ReportRef, sinceTraceCount: number) {
  const traces = (await tracesOf(s, r.id)).slice(sinceTraceCount - 1);
  for (let i = 1; i < traces.length; i++) {
    const prev = traces[i - 1]!;
    const cur = traces[i]!;
    expect({ at: i, from: cur.fromStatus }).toEqual({ at: i, from: prev.toStatus });
    expect((cur.snapshot as { version: number }).version).toBe((prev.snapshot as { version: number }).version + 1);
  }
  const row = await reportRow(s, r.id);
  const last = traces.at(-1)!;
  expect({ status: row.status, version: row.version, finding: row.finding })
    .toEqual({ status: last.toStatus, version: (last.snapshot as { version: number }).version, finding: (last.snapshot as { finding: string }).finding });
  return traces.slice(1);
}

function tally(answers: Answer[]) {
  const out: Record<string, number> = {};
  for (const a of answers) {
    const key = a.status === 200 ? '200' : `${a.status} ${a.body?.code}`;
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}

describe('concurrent actions on one report', () => {
  it('accepts one of 20 saves made from the same version and refuses the rest with VersionConflict', async () => {
    const r = await reportIn(s, 'partial');
    const before = (await tracesOf(s, r.id)).length;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      act(s, 'rad1', r, 'save', { version: r.version, finding: `<p>并发保存 ${i}</p>` })));
    expect(tally(answers)).toEqual({ 200: 1, '409 VersionConflict': 19 });
    const winner = answers.find((a) => a.status === 200)!;
    const added = await expectTraceChain(r, before);
    expect(added.map((t) => t.action)).toEqual(['save']);
    expect((added[0]!.snapshot as { finding: string }).finding).toBe(winner.body.finding);
    expect((await reportRow(s, r.id)).finding).toBe(winner.body.finding);
  });

  it('lets exactly one of submit-side and approve-side actions through on a submitted report', async () => {
    const r = await reportIn(s, 'final');
    const before = (await tracesOf(s, r.id)).length;
    const v = { version: r.version };
    const calls: Promise<Answer>[] = [];
    for (let i = 0; i < 5; i++) {
      calls.push(act(s, 'chief', r, 'approve', v));
      calls.push(act(s, 'admin', r, 'reject', { ...v, reason: `驳回 ${i}` }));
      calls.push(act(s, 'rad1', r, 'cancelSubmit', v));
      calls.push(act(s, 'rad2', r, 'advise', { ...v, reason: `建议 ${i}` }));
    }
    const answers = await Promise.all(calls);
    const counts = tally(answers);
    expect(counts['200']).toBe(1);
    expect(Object.keys(counts).every((k) => k === '200' || k.startsWith('409 '))).toBe(true);
    const added = await expectTraceChain(r, before);
    expect(added).toHaveLength(1);
    const winner = answers.find((a) => a.status === 200)!;
    expect(added[0]!.toStatus).toBe(winner.body.lifecycleStatus);
    expect((await examRow(s, r.examId)).reportStatus).toBe(winner.body.status);
  });

  it('gives the lock to one of two approvers racing for it; the other learns who holds it', async () => {
    const r = await reportIn(s, 'final');
    const before = (await tracesOf(s, r.id)).length;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => act(s, i % 2 ? 'chief' : 'admin', r, 'lock', { version: r.version })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.some((a) => a.status >= 500)).toBe(false);
    const winner = answers.find((a) => a.status === 200)!;
    const row = await reportRow(s, r.id);
    expect(row.lockedById).toBe(winner.body.lockedBy);
    const loser = winner.body.lockedBy === s.ids.accounts.chief ? 'admin' : 'chief';
    const after = await act(s, loser, r, 'approve', { version: row.version });
    expect(after.body).toMatchObject({ code: 'ReportLocked', details: { lockedBy: winner.body.lockedBy } });
    expect((await expectTraceChain(r, before)).map((t) => t.action)).toEqual(['lock']);
  });

  it('loses no text when 20 writers keep saving and retrying on conflict', async () => {
    const r = await reportIn(s, 'partial');
    const before = (await tracesOf(s, r.id)).length;
    const accepted: string[] = [];
    const writer = async (i: number) => {
      const text = `<p>作者 ${i} 的文字</p>`;
      for (let attempt = 0; attempt < 200; attempt++) {
        const current = await detail(s, 'rad1', r.id);
        const res = await act(s, 'rad1', r, 'save', { version: current.body.version, finding: text });
        if (res.status === 200) { accepted.push(text); return; }
        expect(res.body.code).toBe('VersionConflict');
      }
      throw new Error(`writer ${i} never got through`);
    };
    await Promise.all(Array.from({ length: 20 }, (_, i) => writer(i)));
    expect(accepted).toHaveLength(20);
    const added = await expectTraceChain(r, before);
    expect(added.map((t) => (t.snapshot as { finding: string }).finding)).toEqual(accepted);
    expect((await reportRow(s, r.id)).finding).toBe(accepted.at(-1));
  });

  it('ends a free-for-all of 20 mixed actions in one state its trace explains, without a 500', async () => {
    const r = await reportIn(s, 'partial');
    const before = (await tracesOf(s, r.id)).length;
    const moves: [string, string, Record<string, unknown>][] = [
      ['rad1', 'save', { finding: '<p>自由竞争</p>' }], ['rad1', 'submit', {}], ['rad1', 'lock', {}], ['rad1', 'unlock', {}],
      ['chief', 'approve', {}], ['chief', 'reject', { reason: '驳回' }], ['chief', 'recall', { reason: '撤回' }],
      ['chief', 'force-unlock', {}], ['chief', 'assign', { accountId: s.ids.accounts.rad2 }], ['rad2', 'advise', { reason: '建议' }],
      ['rad1', 'delete', {}], ['chief', 'recovery', {}], ['rad1', 'print', {}], ['rad1', 'cancelSubmit', {}],
      ['rad1', 'reset', {}], ['rad1', 'sync', { finding: '<p>外部</p>' }], ['chief', 'assign-remove', {}],
      ['rad2', 'save', { finding: '<p>他人</p>' }], ['chief', 'update-print-time', {}], ['rad1', 'save', { finding: '<p>最后</p>' }],
    ];
    // Three rounds, each from the version the round started with: some succeed, most conflict or are refused.
    for (let round = 0; round < 3; round++) {
      const { version } = await reportRow(s, r.id);
      const answers = await Promise.all(moves.map(([who, action, body]) => act(s, who, r, action, { version, ...body })));
      expect(answers.filter((a) => a.status >= 500)).toEqual([]);
      expect(answers.filter((a) => a.status === 200).length).toBeLessThanOrEqual(1);
    }
    await expectTraceChain(r, before);
  });
});
