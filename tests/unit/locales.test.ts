import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../contract/errors';
import { LANGUAGES } from '../../contract/constants';
import { CLIENT_ERROR_CODES } from '../../src/lib/http/errors';

type Tree = { [key: string]: string | Tree };

const files = Object.fromEntries(
  LANGUAGES.map((lng) => [lng, JSON.parse(readFileSync(new URL(`../../locales/${lng}.json`, import.meta.url), 'utf8')) as Tree]),
) as Record<(typeof LANGUAGES)[number], Tree>;

/** Every leaf as 'a.b.c' → value; a non-string leaf is reported as such. */
function leaves(tree: Tree, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) for (const [k, v] of leaves(value, path)) out.set(k, v);
    else out.set(path, value);
  }
  return out;
}

const byLanguage = Object.fromEntries(LANGUAGES.map((lng) => [lng, leaves(files[lng])])) as Record<(typeof LANGUAGES)[number], Map<string, unknown>>;
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1]).sort();

describe('locale files', () => {
  it.each(LANGUAGES.filter((l) => l !== 'chs'))('%s has exactly the keys of chs', (lng) => {
    const reference = [...byLanguage.chs.keys()].sort();
    const keys = [...byLanguage[lng].keys()].sort();
    expect({ missing: reference.filter((k) => !byLanguage[lng].has(k)), extra: keys.filter((k) => !byLanguage.chs.has(k)) })
      .toEqual({ missing: [], extra: [] });
  });

  it.each(LANGUAGES)('%s has a non-empty text for every key', (lng) => {
    const empty = [...byLanguage[lng]].filter(([, v]) => typeof v !== 'string' || v.trim() === '').map(([k]) => k);
    expect(empty).toEqual([]);
  });

  it.each(LANGUAGES.filter((l) => l !== 'chs'))('%s uses the same {{placeholders}} as chs', (lng) => {
    const differing = [...byLanguage.chs]
      .filter(([k, v]) => typeof v === 'string' && typeof byLanguage[lng].get(k) === 'string')
      .filter(([k, v]) => placeholders(v as string).join() !== placeholders(byLanguage[lng].get(k) as string).join())
      .map(([k]) => k);
    expect(differing).toEqual([]);
  });

  it.each(LANGUAGES)('%s has a text for every error code of the catalogue and of the client', (lng) => {
    const missing = [...ERROR_CODES, ...CLIENT_ERROR_CODES].filter((code) => typeof byLanguage[lng].get(`errors.${code}`) !== 'string');
    expect(missing).toEqual([]);
  });

  it('writes Tibetan in Tibetan script, except language-neutral texts that are the same in all three files', () => {
    const tibetanScript = /[\u0F00-\u0FFF]/;
    const neutral = (k: string, v: unknown) => byLanguage.chs.get(k) === v && byLanguage.en.get(k) === v;
    const latinOnly = [...byLanguage.tib]
      .filter(([k, v]) => !neutral(k, v))
      .filter(([, v]) => typeof v === 'string' && !tibetanScript.test(v))
      .map(([k]) => k);
    expect(latinOnly).toEqual([]);
  });
});

describe('English words of the worklist', () => {
  it('names a physical-exam source and an unknown or other sex with the fields\' words, not "Check" or "?"', () => {
    const en = byLanguage.en;
    expect(en.get('worklist.source.P')).toMatch(/exam/i);
    expect(en.get('worklist.gender.U')).toBe('Unknown');
    expect(en.get('worklist.gender.O')).toBe('Other');
    for (const key of ['worklist.source.P', 'worklist.gender.U', 'worklist.gender.O']) expect(en.get(key)).toMatch(/^[A-Za-z][A-Za-z .()]+$/);
  });
});
