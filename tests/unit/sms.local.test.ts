import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeText } from '../../server/accounts/codes';
import { localSmsSender, maskCodes } from '../../server/accounts/sms';

/** The local SMS sender (server/accounts/sms.ts): the code is masked in the log unless the development outbox is on. */
function capture() {
  const lines: unknown[] = [];
  return { lines, log: { warn: (obj: unknown) => { lines.push(obj); } } as Parameters<typeof localSmsSender>[0] };
}
const at = () => new Date('2026-11-29T00:00:00Z');

describe('the local SMS sender', () => {
  it('logs the text with the code masked when no outbox is set', async () => {
    const { lines, log } = capture();
    await localSmsSender(log, null, at).send('13912345678', codeText('bind-mobile', '482913'));
    expect(lines).toEqual([{ sms: { mobile: '13912345678', text: codeText('bind-mobile', '******') } }]);
    expect(JSON.stringify(lines)).not.toContain('482913');
  });

  it('logs the text whole and appends it to the outbox when SMS_OUTBOX_FILE is set', async () => {
    const { lines, log } = capture();
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'sms-')), 'outbox.jsonl');
    await localSmsSender(log, file, at).send('13912345678', codeText('reset-password', '482913'));
    expect(JSON.stringify(lines)).toContain('482913');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ mobile: '13912345678', text: codeText('reset-password', '482913'), at: '2026-11-29T00:00:00.000Z' });
  });

  it('masks runs of four or more digits and keeps shorter numbers', () => {
    expect(maskCodes('code 123456: valid for 10 minutes')).toBe('code ******: valid for 10 minutes');
  });
});
