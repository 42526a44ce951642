import { describe, expect, it } from 'vitest';
import { createDraftStore, draftKey, draftOffer, type Draft, type DraftStorage } from '@/features/report/model/draftStore';
import { fieldsOf, type ReportFields } from '../../machines/reportModel/fields';
import { reportView } from './reportWorkspace.fixtures';

function fakeStorage(opts: { full?: boolean } = {}): DraftStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => {
      if (opts.full) throw new DOMException('quota', 'QuotaExceededError');
      map.set(k, v);
    },
    removeItem: (k) => void map.delete(k),
    key: (i) => [...map.keys()][i] ?? null,
    get length() {
      return map.size;
    },
  };
}

const server = reportView({ version: 3, savedTime: '2026-11-20T02:00:00.000Z' });
const typed: ReportFields = { ...fieldsOf(server), finding: '<p>双肺纹理清晰。右肺上叶见小结节。</p>' };
const draftOf = (over: Partial<Draft> = {}): Draft => ({
  v: 1, userId: 2, reportId: server.id, baseVersion: 3, baseSavedTime: server.savedTime, updatedAt: Date.parse('2026-11-20T02:05:00Z'), fields: typed, ...over,
});

describe('draft store', () => {
  it('keeps a draft per user and report, and gives it back whole', () => {
    const storage = fakeStorage();
    const store = createDraftStore(storage);
    expect(store.write(draftOf())).toBe(true);
    expect(store.read(2, server.id)?.fields.finding).toBe('<p>双肺纹理清晰。右肺上叶见小结节。</p>');
    expect([...storage.map.keys()]).toEqual([draftKey(2, server.id)]);
  });

  it("never gives one user another user's draft of the same report", () => {
    const store = createDraftStore(fakeStorage());
    store.write(draftOf({ userId: 2 }));
    expect(store.read(3, server.id)).toBeNull();
  });

  it('reads a damaged or foreign entry as no draft instead of failing the page', () => {
    const storage = fakeStorage();
    storage.map.set(draftKey(2, 7), '{not json');
    storage.map.set(draftKey(2, 8), JSON.stringify({ v: 1, userId: 9, reportId: 8, updatedAt: 1, fields: { finding: '' } }));
    const store = createDraftStore(storage);
    expect(store.read(2, 7)).toBeNull();
    expect(store.read(2, 8)).toBeNull();
  });

  it('says so when the browser refuses to store, so the page can warn', () => {
    expect(createDraftStore(fakeStorage({ full: true })).write(draftOf())).toBe(false);
  });

  it('removes a draft, and prunes only drafts older than the limit', () => {
    const storage = fakeStorage();
    const store = createDraftStore(storage);
    const now = Date.parse('2026-12-01T00:00:00Z');
    store.write(draftOf({ reportId: 1, updatedAt: now - 20 * 24 * 3600 * 1000 }));
    store.write(draftOf({ reportId: 2, updatedAt: now - 1000 }));
    storage.map.set('language', 'en');
    expect(store.prune(now)).toBe(1);
    expect(store.read(2, 1)).toBeNull();
    expect(store.read(2, 2)).not.toBeNull();
    expect(storage.map.get('language')).toBe('en');
    store.remove(2, 2);
    expect(store.read(2, 2)).toBeNull();
  });
});

describe('what a reopened report offers', () => {
  const text = { version: server.version, savedTime: server.savedTime, fields: fieldsOf(server) };

  it('offers nothing without a draft', () => {
    expect(draftOffer(null, text)).toEqual({ kind: 'none' });
  });

  it('drops a draft that says what the server already has', () => {
    expect(draftOffer(draftOf({ fields: fieldsOf(server) }), text).kind).toBe('same');
  });

  it('treats an untouched empty editor and an empty stored field as the same text', () => {
    const empty = reportView({ finding: '', diagnosis: '' });
    const draft = draftOf({ fields: { ...fieldsOf(empty), finding: '<p></p>', diagnosis: '<p></p>' } });
    expect(draftOffer(draft, { version: 3, savedTime: null, fields: fieldsOf(empty) }).kind).toBe('same');
  });

  it('offers the draft as newer when nothing was saved since it was started', () => {
    expect(draftOffer(draftOf(), text).kind).toBe('newer');
    // A lock taken meanwhile moves the version but not the saved time: still no newer text on the server.
    expect(draftOffer(draftOf(), { ...text, version: 4 }).kind).toBe('newer');
  });

  it('offers the draft as newer when it was typed after the last save elsewhere', () => {
    const later = { ...text, version: 5, savedTime: '2026-11-20T02:03:00.000Z' };
    expect(draftOffer(draftOf({ updatedAt: Date.parse('2026-11-20T02:04:00Z') }), later).kind).toBe('newer');
  });

  it('still offers, as older, a draft the server has been saved over since', () => {
    const later = { ...text, version: 5, savedTime: '2026-11-20T03:00:00.000Z' };
    const offer = draftOffer(draftOf(), later);
    expect(offer.kind).toBe('older');
    expect(offer.kind === 'older' && offer.draft.fields.finding).toContain('小结节');
  });
});
