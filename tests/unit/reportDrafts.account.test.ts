import { describe, expect, it } from 'vitest';
import { createDraftStore, draftKey, type Draft, type DraftStorage, type ServerText } from '@/features/report/model/draftStore';
import { fieldsOf, type ReportFields } from '../../machines/reportModel/fields';
import { reportView } from './reportWorkspace.fixtures';

/**
 * Drafts on a shared reading-room computer (issue "Hardening"): tied to the account that wrote them, the ones the
 * server already holds removed at logout, the unsaved ones kept for their own account only.
 */

function fakeStorage(): DraftStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
    key: (i) => [...map.keys()][i] ?? null,
    get length() {
      return map.size;
    },
  };
}

const server = reportView({ version: 3, savedTime: '2026-11-20T02:00:00.000Z' });
const savedFields = fieldsOf(server);
const typed: ReportFields = { ...savedFields, finding: '<p>右肺上叶见小结节，未保存。</p>' };
const draftOf = (over: Partial<Draft> = {}): Draft => ({
  v: 1, userId: 2, reportId: server.id, baseVersion: 3, baseSavedTime: server.savedTime, updatedAt: Date.parse('2026-11-20T02:05:00Z'), fields: typed, ...over,
});
const text = (over: Partial<ServerText> = {}): ServerText => ({ version: 3, savedTime: server.savedTime, fields: savedFields, ...over });

describe('drafts tied to an account', () => {
  it("lists an account's own drafts only (account 1 is not account 12)", () => {
    const storage = fakeStorage();
    const store = createDraftStore(storage);
    store.write(draftOf({ userId: 1, reportId: 5 }));
    store.write(draftOf({ userId: 1, reportId: 40 }));
    store.write(draftOf({ userId: 12, reportId: 6 }));
    storage.map.set('report-draft:1:junk', '{not json');
    storage.map.set('language', 'en');
    expect(store.ofAccount(1).map((d) => d.reportId)).toEqual([5, 40]);
    expect(store.ofAccount(12).map((d) => d.reportId)).toEqual([6]);
    expect(store.ofAccount(3)).toEqual([]);
  });

  it('never keeps a draft that names no account, so none can be offered to the wrong one', () => {
    const storage = fakeStorage();
    const store = createDraftStore(storage);
    expect(store.write(draftOf({ userId: 0 }))).toBe(false);
    expect(storage.map.size).toBe(0);
    // One stored under 0 by an older version is not read either.
    storage.map.set(draftKey(0, server.id), JSON.stringify(draftOf({ userId: 0 })));
    expect(store.read(0, server.id)).toBeNull();
    expect(store.ofAccount(0)).toEqual([]);
  });

  it('does not hand one account the draft another account stored under its key', () => {
    const storage = fakeStorage();
    storage.map.set(draftKey(3, server.id), JSON.stringify(draftOf({ userId: 2 })));
    expect(createDraftStore(storage).read(3, server.id)).toBeNull();
    expect(createDraftStore(storage).ofAccount(3)).toEqual([]);
  });
});

describe('at logout', () => {
  it('removes the drafts the server already holds and keeps the unsaved ones', async () => {
    const storage = fakeStorage();
    const store = createDraftStore(storage);
    store.write(draftOf({ reportId: 1, fields: savedFields })); // saved elsewhere: the server says the same
    store.write(draftOf({ reportId: 2 })); // typed after the last save: unsaved
    store.write(draftOf({ reportId: 3, updatedAt: Date.parse('2026-11-20T01:00:00Z') })); // older than a save elsewhere, still not what the server has
    const asked: number[] = [];
    const dropped = await store.dropSaved(2, async (reportId) => {
      asked.push(reportId);
      return reportId === 3 ? text({ version: 5, savedTime: '2026-11-20T03:00:00.000Z' }) : text();
    });
    expect(asked).toEqual([1, 2, 3]);
    expect(dropped).toBe(1);
    expect(store.read(2, 1)).toBeNull();
    expect(store.read(2, 2)?.fields.finding).toBe('<p>右肺上叶见小结节，未保存。</p>');
    expect(store.read(2, 3)).not.toBeNull();
  });

  it('keeps a draft it could not check: no network, an expired token, a report gone', async () => {
    const store = createDraftStore(fakeStorage());
    store.write(draftOf({ reportId: 1, fields: savedFields }));
    store.write(draftOf({ reportId: 2, fields: savedFields }));
    const dropped = await store.dropSaved(2, async (reportId) => {
      throw Object.assign(new Error(reportId === 1 ? 'Failed to fetch' : 'expired'), { status: reportId === 1 ? 0 : 401 });
    });
    expect(dropped).toBe(0);
    expect(store.ofAccount(2)).toHaveLength(2);
  });

  it("leaves other accounts' drafts alone, even of the same report with the same text", async () => {
    const storage = fakeStorage();
    const store = createDraftStore(storage);
    store.write(draftOf({ userId: 2, fields: savedFields }));
    store.write(draftOf({ userId: 5, fields: savedFields }));
    const asked: number[] = [];
    expect(await store.dropSaved(2, async (id) => (asked.push(id), text()))).toBe(1);
    expect(asked).toEqual([server.id]);
    expect(store.read(2, server.id)).toBeNull();
    expect(store.read(5, server.id)).not.toBeNull();
  });

  it('keeps a draft typed on while the server was being asked (another tab of the account)', async () => {
    const store = createDraftStore(fakeStorage());
    store.write(draftOf({ fields: savedFields, updatedAt: 1000 }));
    const dropped = await store.dropSaved(2, async () => {
      store.write(draftOf({ fields: typed, updatedAt: 2000 }));
      return text();
    });
    expect(dropped).toBe(0);
    expect(store.read(2, server.id)?.fields.finding).toBe('<p>右肺上叶见小结节，未保存。</p>');
  });

  it('compares the text as the workspace does: both sides cleaned alike', async () => {
    const store = createDraftStore(fakeStorage());
    // The editor's HTML carries what the server's sanitiser drops; cleaned, it is the saved text.
    store.write(draftOf({ fields: { ...savedFields, finding: `${savedFields.finding}<script>x()</script>` } }));
    const clean = (draft: Draft): Draft => ({ ...draft, fields: { ...draft.fields, finding: draft.fields.finding.replace(/<script>.*<\/script>/, '') } });
    expect(await store.dropSaved(2, async () => text())).toBe(0);
    expect(await store.dropSaved(2, async () => text(), clean)).toBe(1);
    expect(store.ofAccount(2)).toEqual([]);
  });
});
