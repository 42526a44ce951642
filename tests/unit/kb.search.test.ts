import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { KbItem } from '../../contract/kb';

/**
 * The palette's search providers (src/features/palette/providers.ts) and the knowledge base's provider: it asks only
 * the organisations the account may read, finds texts by their words, and a result opens /kb at the item.
 */
const state = vi.hoisted(() => ({ navigated: [] as string[], asked: [] as number[] }));
vi.mock('@/lib/session', () => ({
  navigate: (to: string) => state.navigated.push(to),
  registerModuleReset: () => undefined,
}));
vi.mock('@/lib/i18n', () => ({ i18n: { t: (key: string) => key } }));
vi.mock('@/lib/http', () => ({
  http: {
    get: async (_path: string, options: { query: { bucketId: number } }) => {
      state.asked.push(options.query.bucketId);
      return { items: TREES[options.query.bucketId] ?? [], total: 0 };
    },
  },
}));

const item = (id: number, bucketId: number, parentId: number | null, type: KbItem['type'], name: string, content = ''): KbItem => ({
  id, bucketId, parentId, type, name, referenceId: null, content, sort: id, createdBy: null, created: '2026-01-01T00:00:00.000Z', updated: null, template: null,
});
const TREES: Record<number, KbItem[]> = {
  1: [item(1, 1, null, 'folder', '胸部影像'), item(2, 1, 1, 'text', '肺结节随访', '<p>Fleischner 2017 随访</p>')],
  2: [item(3, 2, null, 'text', '外院的随访', '<p>随访</p>')],
  3: [item(4, 3, null, 'text', '无权的随访', '<p>随访</p>')],
};
const permissions = {
  1: { type: 1 as const, actions: ['report_upsert' as const] },
  2: { type: 1 as const, actions: ['template_upsert' as const] },
  3: { type: 1 as const, actions: ['registry_create' as const] },
};

const { registerSearchProvider, searchProviders } = await import('../../src/features/palette/providers');
const { kbSearchProvider } = await import('../../src/features/kb/search');

beforeEach(() => {
  state.navigated = [];
  state.asked = [];
});

describe('palette search providers', () => {
  it('are registered once per id and can be taken away again', () => {
    const other = { ...kbSearchProvider, id: 'test-other' };
    const remove = registerSearchProvider(other);
    const again = registerSearchProvider({ ...other });
    expect(searchProviders().filter((p) => p.id === 'test-other')).toHaveLength(1);
    remove(); // no longer the registered one: stays
    expect(searchProviders().some((p) => p.id === 'test-other')).toBe(true);
    again();
    expect(searchProviders().some((p) => p.id === 'test-other')).toBe(false);
  });
});

describe('the knowledge base provider', () => {
  it('searches only the organisations the account may read, by name and by text', async () => {
    const results = await kbSearchProvider.search('随访', { signal: new AbortController().signal, permissions });
    expect(results.map((r) => r.label)).toEqual(['肺结节随访', '外院的随访']);
    expect(new Set(state.asked)).toEqual(new Set([1, 2]));
    expect(results[0]!.detail).toBe('kb.types.text · 胸部影像');
    const byText = await kbSearchProvider.search('fleischner', { signal: new AbortController().signal, permissions });
    expect(byText.map((r) => r.label)).toEqual(['肺结节随访']);
  });

  it('opens /kb at the chosen item', async () => {
    const [first] = await kbSearchProvider.search('肺结节', { signal: new AbortController().signal, permissions });
    first!.run();
    expect(state.navigated).toEqual(['/kb?bucketId=1&item=2']);
  });

  it('asks nothing without permissions', async () => {
    expect(await kbSearchProvider.search('随访', { signal: new AbortController().signal, permissions: null })).toEqual([]);
    expect(state.asked).toEqual([]);
  });
});
