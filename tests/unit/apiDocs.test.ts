import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../../contract/errors';

/** docs/api.md's error catalogue is the contract's: every code, with its status, and nothing else. */
const doc = readFileSync(path.resolve(import.meta.dirname, '../../docs/api.md'), 'utf8');
const catalogue = doc.slice(doc.indexOf('## Error catalogue'), doc.indexOf('\n## ', doc.indexOf('## Error catalogue') + 1));
const documented = new Map([...catalogue.matchAll(/^\| `(\w+)` \| (\d{3}) \|/gm)].map((m) => [m[1]!, Number(m[2])]));

describe('docs/api.md error catalogue', () => {
  it('lists every code of contract/errors.ts with its HTTP status', () => {
    const expected = Object.fromEntries(Object.entries(ERROR_STATUS));
    expect(Object.fromEntries([...documented].filter(([code]) => code in ERROR_STATUS))).toEqual(expected);
  });

  it('lists no code the contract does not have', () => {
    expect([...documented.keys()].filter((code) => !(code in ERROR_STATUS))).toEqual([]);
  });
});
