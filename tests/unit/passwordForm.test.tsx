// @vitest-environment jsdom
import { act, cleanup, renderHook } from '@testing-library/react';
import i18next from 'i18next';
import type { FormEvent, ReactNode } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import en from '../../locales/en.json';
import { HttpError } from '@/lib/http/errors';
import { passwordProblems, usePasswordForm } from '@/lib/passwordForm';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false } });
});
afterEach(cleanup);

const wrapper = ({ children }: { children: ReactNode }) => <I18nextProvider i18n={i18n}>{children}</I18nextProvider>;
const event = () => ({ preventDefault: () => undefined }) as unknown as FormEvent;
const GOOD = 'Abc_12345';

describe('passwordProblems: core §5 for a new password', () => {
  it('names each field that breaks the rule, and nothing when all hold', () => {
    expect(passwordProblems({ oldPassword: '', newPassword: '', confirm: '' })).toEqual({
      oldPassword: { rule: 'required', field: 'oldPassword' },
      newPassword: { rule: 'required', field: 'newPassword' },
      confirm: { rule: 'required', field: 'newPassword' },
    });
    expect(passwordProblems({ oldPassword: GOOD, newPassword: GOOD, confirm: GOOD }).newPassword).toEqual({ rule: 'passwordSameAsOld' });
    expect(passwordProblems({ oldPassword: 'old', newPassword: GOOD, confirm: `${GOOD}x` }).confirm).toEqual({ rule: 'confirmMismatch', field: 'newPassword' });
    expect(passwordProblems({ oldPassword: 'old', newPassword: GOOD, confirm: GOOD })).toEqual({ oldPassword: null, newPassword: null, confirm: null });
  });
});

describe('usePasswordForm', () => {
  const fill = (form: ReturnType<typeof usePasswordForm>) => act(() => {
    form.set('oldPassword')({ target: { value: 'old' } });
    form.set('newPassword')({ target: { value: GOOD } });
    form.set('confirm')({ target: { value: GOOD } });
  });

  it('sends nothing while a field (its own or the screen\'s) breaks the rule', async () => {
    const { result } = renderHook(() => usePasswordForm<'username'>({ quietSessionEnd: false }), { wrapper });
    fill(result.current);
    const send = vi.fn(() => Promise.resolve());
    await act(async () => { await result.current.submit(event(), send, () => undefined, { username: { rule: 'required', field: 'username' } }); });
    expect(send).not.toHaveBeenCalled();
    expect(result.current.problems.username).toEqual({ rule: 'required', field: 'username' });
  });

  it('sends the values, then runs done; a refusal is said in words', async () => {
    const { result } = renderHook(() => usePasswordForm({ quietSessionEnd: true }), { wrapper });
    fill(result.current);
    const send = vi.fn(() => Promise.resolve());
    const done = vi.fn();
    await act(async () => { await result.current.submit(event(), send, done); });
    expect(send).toHaveBeenCalledWith({ oldPassword: 'old', newPassword: GOOD, confirm: GOOD });
    expect(done).toHaveBeenCalledTimes(1);
    await act(async () => { await result.current.submit(event(), () => Promise.reject(new HttpError('Forbidden', 403, 'no')), done); });
    expect(result.current.failure).toBe(en.errors.Forbidden);
    expect(done).toHaveBeenCalledTimes(1);
    expect(result.current.busy).toBe(false);
  });

  it('an ending session is quiet on a signed-in screen and said on the public one', async () => {
    const ending = () => Promise.reject(new HttpError('TokenExpiredError', 401, 'expired'));
    const quiet = renderHook(() => usePasswordForm({ quietSessionEnd: true }), { wrapper });
    fill(quiet.result.current);
    await act(async () => { await quiet.result.current.submit(event(), ending, () => undefined); });
    expect(quiet.result.current.failure).toBeNull();
    const loud = renderHook(() => usePasswordForm({ quietSessionEnd: false }), { wrapper });
    fill(loud.result.current);
    await act(async () => { await loud.result.current.submit(event(), ending, () => undefined); });
    expect(loud.result.current.failure).toBe(en.errors.TokenExpiredError);
  });
});
