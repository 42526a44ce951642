// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import en from '../../locales/en.json';
import { ConfirmDialog } from '@/ui/ConfirmDialog';
import { standInForModalDialogs } from './support/dialogs';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false } });
  // As the browser's showModal does, the stand-in focuses the dialog's first button (Cancel).
  standInForModalDialogs();
});
beforeEach(() => vi.useFakeTimers({ toFake: ['requestAnimationFrame', 'cancelAnimationFrame'] }));
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const open = (focus: 'confirm' | 'cancel') => render(
  <I18nextProvider i18n={i18n}>
    <ConfirmDialog open title="Delete the rule?" confirmLabel="Delete" busy={false} focus={focus} onConfirm={() => undefined} onCancel={() => undefined}>
      <p>Gone for good.</p>
    </ConfirmDialog>
  </I18nextProvider>,
);
const button = (name: string) => screen.getByRole('button', { name, hidden: true });

describe('where a confirmation puts the focus', () => {
  it('on the confirm button or on Cancel, as asked, one frame after it opens', () => {
    open('confirm');
    act(() => { vi.advanceTimersToNextFrame(); });
    expect(document.activeElement).toBe(button('Delete'));
    cleanup();
    open('cancel');
    act(() => { vi.advanceTimersToNextFrame(); });
    expect(document.activeElement).toBe(button(en.common.cancel));
  });

  it('leaves it where a key the user pressed before that frame moved it', () => {
    open('cancel');
    expect(document.activeElement).toBe(button(en.common.cancel));
    // A quick Tab to the confirm button, before the next frame.
    fireEvent.keyDown(document.activeElement!, { key: 'Tab' });
    button('Delete').focus();
    act(() => { vi.advanceTimersToNextFrame(); });
    expect(document.activeElement).toBe(button('Delete'));
  });
});
