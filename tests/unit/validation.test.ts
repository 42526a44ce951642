import { describe, expect, it } from 'vitest';
import { alphaDash, confirmed, firstProblem, lengthBetween, password, problemText, required, wholeNumberWithin } from '../../src/lib/validation';
import { initI18n, i18n } from '../../src/lib/i18n';

describe('form rules (core §5)', () => {
  it('requires a value, ignoring surrounding spaces', () => {
    expect(required('username', '   ')).toEqual({ rule: 'required', field: 'username' });
    expect(required('username', ' rad1 ')).toBeNull();
  });

  it('allows only letters, digits, dash and underscore under alpha_dash', () => {
    expect(alphaDash('username', 'rad_1-a')).toBeNull();
    for (const bad of ['rad 1', 'rad.1', '李明', 'a@b']) expect(alphaDash('username', bad)).toEqual({ rule: 'alphaDash', field: 'username' });
  });

  it('asks for 6 to 32 characters with two of letters, digits and other characters', () => {
    expect(password('password', '')).toEqual({ rule: 'required', field: 'password' });
    expect(password('password', 'a1b2c')).toEqual({ rule: 'lengthBetween', field: 'password', min: 6, max: 32 });
    expect(password('password', 'a'.repeat(33) + '1')).toMatchObject({ rule: 'lengthBetween' });
    expect(password('password', 'abcdefgh')).toEqual({ rule: 'passwordTooSimple' });
    expect(password('password', '12345678')).toEqual({ rule: 'passwordTooSimple' });
    expect(password('password', 'Demo1234')).toBeNull();
    expect(password('password', 'abc!def')).toBeNull();
  });

  it('reports a confirmation that differs', () => {
    expect(confirmed('password', 'Demo1234', 'Demo1235')).toEqual({ rule: 'confirmMismatch', field: 'password' });
    expect(confirmed('password', 'Demo1234', 'Demo1234')).toBeNull();
  });

  it('gives the first problem in order', () => {
    expect(firstProblem(required('username', 'ab'), lengthBetween('username', 'ab', 3, 32), alphaDash('username', 'ab'))).toEqual({ rule: 'lengthBetween', field: 'username', min: 3, max: 32 });
  });

  it('words the messages with the field name in each language', async () => {
    await initI18n('en');
    const t = i18n.t.bind(i18n);
    expect(problemText(t, required('password', ''))).toBe('Password is required');
    expect(problemText(t, confirmed('password', 'a', 'b'))).toBe('The two password entries do not match');
    await i18n.changeLanguage('chs');
    expect(problemText(t, confirmed('password', 'a', 'b'))).toBe('两次输入的密码不一致');
    expect(problemText(t, password('password', 'abcdefgh'))).toBe('密码过于简单，请至少使用字母、数字和特殊字符中的两种');
  });
});

describe('a validity typed into a field (share links, films, upload codes)', () => {
  const days = { min: 1, max: 365 };
  it('takes a whole number within the bounds, spaces around it allowed', () => {
    expect(wholeNumberWithin('1', days)).toBe(1);
    expect(wholeNumberWithin(' 30 ', days)).toBe(30);
    expect(wholeNumberWithin('365', days)).toBe(365);
  });
  it('refuses what the server would refuse, and what would be read as something else', () => {
    for (const text of ['', ' ', '0', '366', '-1', '7.5', '7.0', '1e2', '0x10', 'seven']) expect(wholeNumberWithin(text, days), text).toBeNull();
  });
});
