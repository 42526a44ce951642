// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import en from '../../locales/en.json';
import { createToastStore } from '@/lib/toasts';
import { Toaster } from '@/lib/toasts/Toaster';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false } });
});
beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function setup() {
  const store = createToastStore();
  render(<I18nextProvider i18n={i18n}><Toaster store={store} /></I18nextProvider>);
  act(() => { store.show({ message: 'New exam: Li Ming' }); });
  const card = screen.getByText('New exam: Li Ming').closest('[data-toast-key]') as HTMLElement;
  const later = (ms: number) => act(() => { vi.advanceTimersByTime(ms); });
  return { store, card, later };
}

describe('a notification the user is reading (WCAG 2.2.1)', () => {
  it('stays while the pointer is over it, and leaves with the rest of its time after', () => {
    const { card, later } = setup();
    later(3_000);
    fireEvent.mouseEnter(card);
    later(30_000);
    expect(screen.getByText('New exam: Li Ming')).toBeTruthy();
    fireEvent.mouseLeave(card);
    later(6_999);
    expect(screen.queryByText('New exam: Li Ming')).not.toBeNull();
    later(1);
    expect(screen.queryByText('New exam: Li Ming')).toBeNull();
  });

  it('stays while focus is in it, its close button included, until focus leaves it and the pointer is gone', () => {
    const { card, later } = setup();
    fireEvent.focus(card);
    fireEvent.mouseEnter(card);
    const close = screen.getByRole('button', { name: en.common.dismiss });
    // Focus moves from the card to its own close button: still in the card.
    fireEvent.blur(card, { relatedTarget: close });
    fireEvent.focus(close);
    fireEvent.mouseLeave(card);
    later(30_000);
    expect(screen.queryByText('New exam: Li Ming')).not.toBeNull();
    fireEvent.blur(close, { relatedTarget: document.body });
    later(9_999);
    expect(screen.queryByText('New exam: Li Ming')).not.toBeNull();
    later(1);
    expect(screen.queryByText('New exam: Li Ming')).toBeNull();
  });
});
