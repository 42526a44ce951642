import { describe, expect, it } from 'vitest';
import { accountRefParam, normalizeMobile } from '../../contract/accounts';
import { maskMobile } from '../../server/accounts/codes';

describe('normalizeMobile (settings/mobile)', () => {
  it.each([
    ['13812345678', '13812345678'], ['+8613812345678', '13812345678'], ['86 138-1234-5678', '13812345678'],
    ['+447911123456', '+447911123456'], ['+1 415 555 2671', '+14155552671'],
  ])('accepts %j as %j', (raw, normal) => expect(normalizeMobile(raw)).toBe(normal));

  it.each(['12812345678', '1381234567', '138123456789', '+0123456789', '+1234567', '+8612812345678', '138abc45678', ''])('refuses %j', (raw) => {
    expect(normalizeMobile(raw)).toBeNull();
  });
});

describe('maskMobile', () => {
  it('hides the middle of the number', () => {
    expect(maskMobile('13812345678')).toBe('138****5678');
    expect(maskMobile('+447911123456')).toBe('+447*****3456');
    expect(maskMobile('+1234567')).toBe('+1****67');
  });
});

describe('the account reference of the public reset routes', () => {
  it('reads digits as an id and anything else as a username', () => {
    expect(accountRefParam.parse({ id: '42' }).id).toEqual({ id: 42 });
    expect(accountRefParam.parse({ id: 'rad1' }).id).toEqual({ username: 'rad1' });
    expect(accountRefParam.safeParse({ id: '' }).success).toBe(false);
  });
});
