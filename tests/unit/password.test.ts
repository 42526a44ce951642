import { describe, expect, it } from 'vitest';
import { checkPassword, isStrongPassword, passwordKinds } from '../../contract/password';

/** core §5: 6 to 32 characters, at least two of three kinds (letters, digits, other). One function, server and client. */
describe('password rule', () => {
  describe('length, counted in characters', () => {
    it.each([
      ['5 characters', 'abc12', 'length'],
      ['6 characters', 'abc123', null],
      ['32 characters', 'a1'.repeat(16), null],
      ['33 characters', `${'a1'.repeat(16)}b`, 'length'],
    ] as const)('%s → %s', (_label, password, problem) => {
      expect([...password].length).toBe(Number(_label.split(' ')[0]));
      expect(checkPassword(password)).toBe(problem);
    });

    it('is required when empty', () => {
      expect(checkPassword('')).toBe('required');
    });

    it('counts a character outside the BMP once, not as two UTF-16 units', () => {
      expect(checkPassword('😀😀1ab')).toBe('length'); // 5 characters, 7 UTF-16 units
      expect(checkPassword(`a${'😀'.repeat(31)}`)).toBe(null); // 32 characters, 63 units
      expect(checkPassword(`a${'😀'.repeat(32)}`)).toBe('length');
    });
  });

  describe('kinds', () => {
    it.each([
      ['letters and digits', 'abcd12'],
      ['letters and other', 'abcd!?'],
      ['digits and other', '1234#$'],
      ['all three', 'ab12#$'],
      ['a space counts as other', 'abc de'],
    ])('accepts %s', (_label, password) => {
      expect(checkPassword(password)).toBe(null);
      expect(isStrongPassword(password)).toBe(true);
    });

    it.each([
      ['letters only', 'abcdefgh'],
      ['upper and lower case letters only', 'AbCdEfGh'],
      ['digits only', '12345678'],
      ['other only', '!@#$%^&*'],
      ['spaces only', '        '],
    ])('refuses %s as too simple', (_label, password) => {
      expect(checkPassword(password)).toBe('tooSimple');
      expect(isStrongPassword(password)).toBe(false);
    });

    it('counts each kind once however often it appears', () => {
      expect(passwordKinds('aaaa')).toBe(1);
      expect(passwordKinds('a1')).toBe(2);
      expect(passwordKinds('a1!')).toBe(3);
      expect(passwordKinds('')).toBe(0);
    });
  });

  describe('beyond ASCII', () => {
    it('takes Chinese characters as letters', () => {
      expect(passwordKinds('密码')).toBe(1);
      expect(checkPassword('密码密码密码')).toBe('tooSimple');
      expect(checkPassword('密码密码12')).toBe(null);
      expect(checkPassword('密码密码！！')).toBe(null); // full-width punctuation is "other"
    });

    it('takes Tibetan letters with their vowel signs as letters and Tibetan digits as digits', () => {
      const word = 'བཀྲ་ཤིས'; // contains a subjoined letter and a vowel sign (combining marks) and the tsheg (punctuation)
      expect(passwordKinds('བཀྲཤིས')).toBe(1);
      expect(passwordKinds(word)).toBe(2);
      expect(checkPassword('བཀྲཤིས༡༢')).toBe(null); // ༡༢ are Tibetan digits
    });

    it('does not count a combining accent as a second kind', () => {
      const decomposed = 'cafe\u0301s'; // "cafés" typed with a combining acute accent
      expect(passwordKinds(decomposed)).toBe(1);
      expect(checkPassword(`${decomposed}x`)).toBe('tooSimple');
      expect(checkPassword(`${decomposed}1`)).toBe(null);
    });

    it('takes other scripts\' digits as digits and symbols as other', () => {
      expect(passwordKinds('١٢٣٤٥٦')).toBe(1); // Arabic-Indic digits
      expect(checkPassword('abc١٢٣')).toBe(null);
      expect(checkPassword('€€€€€€')).toBe('tooSimple');
      expect(checkPassword('€€€€€1')).toBe(null);
    });
  });
});
