// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import en from '../../locales/en.json';
import { createToastStore, ToastLane, Toaster } from '@/lib/toasts';

/**
 * Issue 32: in the shell the corner toasts live in the lane beside the screen (the layout makes room for it while a
 * toast is up), not in a floating corner over it; the re-login notices keep their bottom area; without a lane (screens
 * without the shell) the floating corner is back. Closing, holding and the cap of 3 are the store's, as before.
 */

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false } });
});
beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const lane = () => document.querySelector('[data-toast-lane]') as HTMLElement;
const floating = () => document.querySelector('section[data-corner]');

function shell(store = createToastStore(), withLane = true) {
  const view = render(
    <I18nextProvider i18n={i18n}>
      <div>{withLane && <ToastLane store={store} />}</div>
      <Toaster store={store} />
    </I18nextProvider>,
  );
  return { store, view };
}

describe('the notification lane', () => {
  it('takes no room while nothing is up, and a toast width while one is', () => {
    const { store } = shell();
    expect(lane().style.width).toBe('0px');
    expect(lane().hasAttribute('data-open')).toBe(false);
    act(() => { store.show({ title: 'New exam', message: 'Li Ming · CT' }); });
    expect(lane().style.width).not.toBe('0px'); // a toast's width and margins (jsdom cannot compute the clamp)
    expect(lane().hasAttribute('data-open')).toBe(true);
    act(() => { vi.advanceTimersByTime(10_000); });
    expect(lane().style.width).toBe('0px');
  });

  it('holds the corner toasts itself: no floating stack over the screen', () => {
    const { store } = shell();
    act(() => { store.show({ message: 'New exam: Li Ming' }); });
    expect(floating()).toBeNull();
    expect(lane().contains(screen.getByText('New exam: Li Ming'))).toBe(true);
    expect(lane().getAttribute('aria-live')).toBe('polite');
  });

  it('keeps the re-login notices at the bottom, outside the lane', () => {
    const { store } = shell();
    act(() => { store.show({ message: 'Login verification failed', placement: 'bottom' }); });
    expect(lane().textContent).toBe('');
    expect(screen.getByRole('alert').textContent).toBe('Login verification failed');
  });

  it('closes a toast on Esc and all of them from the store, at most 3 at a time', () => {
    const { store } = shell();
    act(() => { for (const n of [1, 2, 3, 4]) store.show({ message: `News ${n}` }); });
    expect([...lane().querySelectorAll('[data-toast-key]')].map((el) => el.textContent)).toEqual(['News 2', 'News 3', 'News 4'].map((m) => `${m}×`));
    fireEvent.keyDown(screen.getByText('News 2').closest('[data-toast-key]')!, { key: 'Escape' });
    expect(lane().querySelectorAll('[data-toast-key]')).toHaveLength(2);
    act(() => { store.dismissAll(); });
    expect(lane().style.width).toBe('0px');
  });

  it('gives the toasts back to the floating corner where no lane is mounted', () => {
    const store = createToastStore();
    const { view } = shell(store, true);
    view.unmount();
    shell(store, false);
    act(() => { store.show({ message: 'Saved' }); });
    expect(lane()).toBeNull();
    expect(floating()?.textContent).toContain('Saved');
  });
});
