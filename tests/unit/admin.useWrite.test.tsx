// @vitest-environment jsdom
import { act, cleanup, renderHook } from '@testing-library/react';
import i18next from 'i18next';
import type { ReactNode } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import { HttpError } from '@/lib/http/errors';
import { toasts } from '@/lib/toasts';
import { useWrite } from '@/features/admin/ui/useWrite';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false } });
});
// The toast store is one for the whole worker: another file's toasts are not this test's.
const clearToasts = () => { for (const toast of toasts.list()) toasts.dismiss(toast.id); };
beforeEach(clearToasts);
afterEach(() => {
  cleanup();
  clearToasts();
});

const wrapper = ({ children }: { children: ReactNode }) => <I18nextProvider i18n={i18n}>{children}</I18nextProvider>;
const refused = new HttpError('Forbidden', 403, 'no');
const messages = () => toasts.list().map((toast) => `${toast.kind}:${toast.message}`);

describe('useWrite: one write at a time, its refusal returned', () => {
  it('succeeds with its toast and no error', async () => {
    const { result } = renderHook(() => useWrite(), { wrapper });
    let ok = false;
    await act(async () => { ok = await result.current.run(() => Promise.resolve(), 'Saved'); });
    expect(ok).toBe(true);
    expect(result.current.error).toBeNull();
    expect(messages()).toEqual(['success:Saved']);
  });

  it('returns the refusal and toasts it by default; inline keeps it off the toasts; the next write clears it', async () => {
    const toasted = renderHook(() => useWrite(), { wrapper });
    await act(async () => { await toasted.result.current.run(() => Promise.reject(refused)); });
    expect(toasted.result.current.error).toBe(refused);
    expect(messages()).toEqual([`error:${en.errors.Forbidden}`]);

    clearToasts();
    const inline = renderHook(() => useWrite({ errors: 'inline' }), { wrapper });
    let ok = true;
    await act(async () => { ok = await inline.result.current.run(() => Promise.reject(refused)); });
    expect(ok).toBe(false);
    expect(inline.result.current.error).toBe(refused);
    expect(messages()).toEqual([]);
    await act(async () => { await inline.result.current.run(() => Promise.resolve()); });
    expect(inline.result.current.error).toBeNull();
  });

  it('a session that is ending is no error; clear() forgets a refusal', async () => {
    const { result } = renderHook(() => useWrite({ errors: 'inline' }), { wrapper });
    await act(async () => { await result.current.run(() => Promise.reject(new HttpError('TokenExpiredError', 401, 'expired'))); });
    expect(result.current.error).toBeNull();
    await act(async () => { await result.current.run(() => Promise.reject(refused)); });
    act(() => result.current.clear());
    expect(result.current.error).toBeNull();
  });

  it('a second run while the first is out sends nothing', async () => {
    const { result } = renderHook(() => useWrite(), { wrapper });
    let calls = 0;
    let finish = () => undefined as void;
    let first: Promise<boolean> = Promise.resolve(false);
    act(() => { first = result.current.run(() => { calls += 1; return new Promise<void>((resolve) => { finish = resolve; }); }); });
    let second = true;
    await act(async () => { second = await result.current.run(() => { calls += 1; return Promise.resolve(); }); });
    expect(second).toBe(false);
    finish();
    await act(async () => { await first; });
    expect(calls).toBe(1);
  });
});
