import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Language } from '../../contract/constants';
import { maskName, pickVoice, speechText, type SpeechTemplates, type VoiceLike } from '@/features/calling/speech';

const templatesOf = (language: Language): SpeechTemplates =>
  (JSON.parse(readFileSync(new URL(`../../locales/${language}.json`, import.meta.url), 'utf8')) as { calling: { speech: SpeechTemplates } }).calling.speech;

const call = { number: 'A003', room: 'CT室1', name: '张*明' };

describe('speechText', () => {
  it('says number, masked name and room in Chinese', () => {
    expect(speechText(templatesOf('chs'), call, false)).toBe('请 A003 号 张*明 到 CT室1 检查');
  });

  it('leaves the name out when privacy is on, whatever the payload carries', () => {
    const text = speechText(templatesOf('chs'), call, true);
    expect(text).toBe('请 A003 号 到 CT室1 检查');
    expect(text).not.toContain('张');
    expect(speechText(templatesOf('en'), { ...call, room: 'CT room 1' }, true)).toBe('Number A003, please go to CT room 1');
  });

  it('says the name in English when privacy is off', () => {
    expect(speechText(templatesOf('en'), { number: 'B012', room: 'CT room 1', name: 'J*** S****' }, false))
      .toBe('Number B012, J*** S****, please go to CT room 1');
  });

  it('has a sentence without a room, and one without a name, in every language', () => {
    for (const language of ['chs', 'en', 'tib'] as const) {
      const t = templatesOf(language);
      const noRoom = speechText(t, { number: 'C001', room: null, name: null }, false);
      expect(noRoom).toContain('C001');
      expect(noRoom).not.toMatch(/\{\{|\s{2}/);
      const named = speechText(t, { number: 'C001', room: ' ', name: '张*明' }, false);
      expect(named).toContain('张*明');
      expect(speechText(t, { number: 'C002', room: 'US 2', name: '' }, false)).toContain('US 2');
    }
  });

  it('speaks Tibetan in Tibetan script around the number and the room', () => {
    const text = speechText(templatesOf('tib'), { number: 'A003', room: 'CT 1', name: null }, true);
    expect(text).toContain('A003');
    expect(text).toContain('CT 1');
    expect(text).toMatch(/[\u0F00-\u0FFF]/);
  });
});

describe('maskName', () => {
  it.each([
    ['张三明', '张*明'],
    ['欧阳娜娜', '欧**娜'],
    ['张三', '张*'],
    ['王', '王'],
    ['John Smith', 'J*** S****'],
    ['Alice', 'A****'],
    ['  ', ''],
  ])('%s → %s', (name, masked) => {
    expect(maskName(name)).toBe(masked);
  });
});

describe('pickVoice', () => {
  const v = (lang: string, name: string, extra: Partial<VoiceLike> = {}): VoiceLike => ({ lang, name, localService: false, default: false, ...extra });

  it('takes the exact language first, a local voice before a network one', () => {
    const voices = [v('en-US', 'en'), v('zh-TW', 'tw', { localService: true }), v('zh-CN', 'net'), v('zh-CN', 'local', { localService: true })];
    expect(pickVoice(voices, 'chs')?.name).toBe('local');
    expect(pickVoice(voices, 'en')?.name).toBe('en');
  });

  it('falls back to the same primary language, and to nothing', () => {
    expect(pickVoice([v('zh_TW', 'tw'), v('en-GB', 'gb')], 'chs')?.name).toBe('tw');
    expect(pickVoice([v('en-GB', 'gb')], 'en')?.name).toBe('gb');
    expect(pickVoice([v('zh-CN', 'cn'), v('en-US', 'us')], 'tib')).toBeNull();
    expect(pickVoice([], 'chs')).toBeNull();
  });
});
