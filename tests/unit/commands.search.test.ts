import { describe, expect, it } from 'vitest';
import { scoreCommand, type SearchFields } from '@/features/palette/search';

const fields = (label: string, extra: Partial<SearchFields> = {}): SearchFields => ({ label, heading: '', id: '', keywords: [], ...extra });

describe('palette search', () => {
  it('finds a label by its start, a word inside it, or any part of it, in that order', () => {
    const start = scoreCommand('prof', fields('Profile'));
    const word = scoreCommand('shortcuts', fields('Show keyboard shortcuts'));
    const inside = scoreCommand('ofil', fields('Profile'));
    expect(start).toBeGreaterThan(word);
    expect(word).toBeGreaterThan(inside);
    expect(inside).toBeGreaterThan(0);
  });

  it('ignores case and full-width forms', () => {
    expect(scoreCommand('PROFILE', fields('Profile'))).toBe(1);
    expect(scoreCommand('ｐｒｏｆｉｌｅ', fields('Profile'))).toBe(1);
  });

  it('finds initials of words, and Chinese characters that are not adjacent', () => {
    expect(scoreCommand('ks', fields('Show keyboard shortcuts'))).toBeGreaterThan(0);
    expect(scoreCommand('个资', fields('个人资料'))).toBeGreaterThan(0);
    expect(scoreCommand('ཆ་འཕྲིན', fields('རང་གི་ཆ་འཕྲིན།'))).toBeGreaterThan(0);
  });

  it('does not find a label by letters scattered through it', () => {
    expect(scoreCommand('set', fields('Show keyboard shortcuts'))).toBe(0);
    expect(scoreCommand('zz', fields('Profile'))).toBe(0);
  });

  it('also finds a command by its id, its keywords and its heading, below a label match', () => {
    const byLabel = scoreCommand('profile', fields('Profile'));
    const byId = scoreCommand('profile', fields('个人资料', { id: 'nav.profile' }));
    const byKeyword = scoreCommand('settings', fields('个人资料', { keywords: ['/settings/profile'] }));
    const byHeading = scoreCommand('go', fields('Profile', { heading: 'Go to' }));
    expect(byLabel).toBeGreaterThan(byId);
    expect(byId).toBeGreaterThan(byHeading);
    expect(byKeyword).toBeGreaterThan(0);
    expect(byHeading).toBeGreaterThan(0);
  });

  it('needs every word of the search to be found', () => {
    expect(scoreCommand('go profile', fields('Profile', { heading: 'Go to' }))).toBeGreaterThan(0);
    expect(scoreCommand('go registry', fields('Profile', { heading: 'Go to' }))).toBe(0);
  });
});

describe('palette search over the real commands', () => {
  it('finds force unlock first for 解锁, and nothing unrelated beside it', async () => {
    const chs = (await import('../../locales/chs.json')).default as Record<string, unknown>;
    const { commandCatalog } = await import('@/app/commandCatalog');
    const text = (key: string | undefined) => String(key?.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], chs) ?? '');
    const ranked = Object.values(commandCatalog).flat()
      .map((c) => ({ id: c.id, score: scoreCommand('解锁', { label: text(c.label), heading: text(c.section), id: c.id, keywords: c.keywords ?? [] }) }))
      .filter((r) => r.score > 0)
      .sort((a, b) => b.score - a.score);
    expect(ranked.map((r) => r.id)).toEqual(['report.forceUnlock']);
  });
});
