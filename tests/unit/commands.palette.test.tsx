// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { useState } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import en from '../../locales/en.json';
import type { Language } from '../../contract/constants';
import { CommandRegistry, CommandScope, CommandsProvider, useCommands, type CommandSpec } from '@/lib/commands';
import { CommandCenter, type AppCommandContext } from '@/features/palette/CommandCenter';
import { standInForModalDialogs } from './support/dialogs';

beforeAll(async () => {
  // The palette and the sheet are lazy chunks: the first test would otherwise wait for their first transform and import,
  // which on a slow CI machine took longer than findByRole's second (the first test failed there, and only there).
  await Promise.all([import('@/features/palette/Palette'), import('@/features/palette/ShortcutSheet')]);
  // jsdom has no modal dialogs, layout or resize observation; these stand in for the browser's.
  standInForModalDialogs();
  Element.prototype.scrollIntoView = function scrollIntoView() {};
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
});

afterEach(cleanup);

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false } });

function fakeApp(overrides: Partial<AppCommandContext> = {}): AppCommandContext {
  return {
    canVisit: (path) => path !== '/registry',
    navigate: vi.fn(),
    home: () => '/studies',
    toggleTheme: vi.fn(),
    language: 'en' as Language,
    setLanguage: vi.fn(),
    hasNotifications: () => false,
    dismissNotifications: vi.fn(),
    logout: vi.fn(),
    ...overrides,
  };
}

const worklistCommands: CommandSpec<{ next: () => void }>[] = [
  { id: 'worklist.next', label: 'commands.scopes.worklist', scope: 'worklist', shortcut: 'j', run: (ctx) => ctx.next() },
];

function Worklist({ next }: { next: () => void }) {
  useCommands(worklistCommands, { next });
  return (
    <CommandScope scope="worklist">
      <input aria-label="Search studies" />
    </CommandScope>
  );
}

function mount(app = fakeApp(), next = vi.fn()) {
  render(
    <I18nextProvider i18n={i18n}>
      <CommandsProvider registry={new CommandRegistry()}>
        <button type="button">Before</button>
        <Worklist next={next} />
        <CommandCenter app={app} />
      </CommandsProvider>
    </I18nextProvider>,
  );
  return app;
}

function press(key: string, init: KeyboardEventInit = {}, target: Element = document.activeElement ?? document.body) {
  const code = /^[a-z]$/i.test(key) ? `Key${key.toUpperCase()}` : key === '?' ? 'Slash' : key;
  act(() => {
    target.dispatchEvent(new KeyboardEvent('keydown', { key, code, bubbles: true, cancelable: true, ...init }));
  });
}

async function openPalette() {
  press('k', { ctrlKey: true });
  return screen.findByRole('dialog', { name: 'Command palette' });
}

const optionNames = (dialog: HTMLElement) => within(dialog).queryAllByRole('option').map((o) => o.querySelector('span')?.textContent);

describe('the command palette', () => {
  it('opens on Ctrl+K with the search focused, listing what the user may do with its keys', async () => {
    mount();
    const palette = await openPalette();
    expect(within(palette).getByRole('combobox')).toBe(document.activeElement);
    const names = optionNames(palette);
    expect(names).toEqual(expect.arrayContaining(['Worklist', 'Consultations', 'Profile', 'Start page', 'Show keyboard shortcuts', 'Log out']));
    expect(names).not.toContain('Registry');
    expect(names).not.toContain('Language: English');
    expect(names).toContain('Language: 简体中文');
    const profile = within(palette).getByRole('option', { name: /Profile/ });
    expect(profile.querySelector('[data-shortcut]')?.getAttribute('data-shortcut')).toBe('g p');
  });

  it('filters by the translated label as the user types', async () => {
    mount();
    const palette = await openPalette();
    fireEvent.change(within(palette).getByRole('combobox'), { target: { value: 'profil' } });
    expect(optionNames(palette)).toEqual(['Profile']);
    fireEvent.change(within(palette).getByRole('combobox'), { target: { value: 'zzzz' } });
    expect(optionNames(palette)).toEqual([]);
    expect(within(palette).getByText('No matching command')).toBeTruthy();
  });

  it('runs the chosen command with arrows and Enter, after closing and giving focus back', async () => {
    const app = mount();
    screen.getByRole('button', { name: 'Before' }).focus();
    const palette = await openPalette();
    const input = within(palette).getByRole('combobox');
    fireEvent.change(input, { target: { value: 'o' } });
    const names = optionNames(palette);
    const steps = names.indexOf('Profile');
    expect(steps).toBeGreaterThanOrEqual(0);
    for (let i = 0; i < steps; i++) fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(app.navigate).toHaveBeenCalledWith('/settings/profile');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Before' }));
  });

  it('closes on Esc without running anything and gives focus back', async () => {
    const app = mount();
    screen.getByRole('button', { name: 'Before' }).focus();
    const palette = await openPalette();
    fireEvent.keyDown(within(palette).getByRole('combobox'), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(app.navigate).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Before' }));
  });

  it('closes again on a second Ctrl+K, typed from its own search field', async () => {
    mount();
    await openPalette();
    press('k', { ctrlKey: true });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('keeps the page’s plain keys quiet while it is open', async () => {
    const next = vi.fn();
    mount(fakeApp(), next);
    await openPalette();
    press('j', {}, document.body);
    expect(next).not.toHaveBeenCalled();
  });

  it('opens the shortcut sheet from the palette', async () => {
    mount();
    const palette = await openPalette();
    fireEvent.change(within(palette).getByRole('combobox'), { target: { value: 'keyboard shortcuts' } });
    fireEvent.keyDown(within(palette).getByRole('combobox'), { key: 'Enter' });
    expect(await screen.findByRole('dialog', { name: 'Keyboard shortcuts' })).toBeTruthy();
  });
});

describe('the shortcut sheet', () => {
  it('opens on ? and lists every available shortcut under its heading, the current screen first', async () => {
    mount();
    press('?', { shiftKey: true }, document.body);
    const sheet = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    const headings = within(sheet).getAllByRole('heading', { level: 3 }).map((h) => h.textContent);
    expect(headings).toEqual(['Worklist', 'Go to', 'Help']);
    const goTo = within(sheet).getByRole('region', { name: 'Go to' });
    const rows = [...goTo.querySelectorAll('dl > div')].map((row) => [
      row.querySelector('dt')?.textContent,
      row.querySelector('[data-shortcut]')?.getAttribute('data-shortcut'),
    ]);
    expect(rows).toEqual([
      ['Worklist', 'g s'],
      ['Consultations', 'g c'],
      ['Profile', 'g p'],
      ['Open help', 'F1'],
      ['Start page', 'g h'],
    ]);
    expect(within(sheet).queryByText('Log out')).toBeNull();
  });

  it('prints the keys as caps, with "then" between the presses of a sequence', async () => {
    mount();
    press('?', { shiftKey: true }, document.body);
    const sheet = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    const keys = sheet.querySelector('[data-shortcut="g p"]');
    expect([...(keys?.querySelectorAll('kbd') ?? [])].map((k) => k.textContent)).toEqual(['G', 'P']);
    expect(keys?.textContent).toBe('GthenP');
  });

  it('closes on ? or Esc and gives focus back', async () => {
    mount();
    screen.getByRole('button', { name: 'Before' }).focus();
    press('?', { shiftKey: true });
    const sheet = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    fireEvent.keyDown(sheet, { key: '?', shiftKey: true });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Before' }));

    press('?', { shiftKey: true });
    fireEvent.keyDown(await screen.findByRole('dialog'), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('the global go-to keys', () => {
  it('navigate on g p, but not when g p is typed into a text field', async () => {
    const app = mount();
    press('g', {}, document.body);
    press('p', {}, document.body);
    expect(app.navigate).toHaveBeenCalledWith('/settings/profile');

    const search = screen.getByRole('textbox', { name: 'Search studies' });
    press('g', {}, search);
    press('p', {}, search);
    expect(app.navigate).toHaveBeenCalledTimes(1);
  });

  it('leave a destination the user may not open to the browser', () => {
    const app = mount();
    press('g', {}, document.body);
    press('r', {}, document.body);
    expect(app.navigate).not.toHaveBeenCalled();
  });

  it('follow the app context as it changes', () => {
    const navigate = vi.fn();
    function Switching() {
      const [language, setLanguage] = useState<Language>('en');
      const home = language === 'chs' ? '/registry' : '/studies';
      return (
        <>
          <button type="button" onClick={() => setLanguage('chs')}>
            chs
          </button>
          <CommandCenter app={fakeApp({ language, navigate, home: () => home, canVisit: () => true })} />
        </>
      );
    }
    render(
      <I18nextProvider i18n={i18n}>
        <CommandsProvider registry={new CommandRegistry()}>
          <Switching />
        </CommandsProvider>
      </I18nextProvider>,
    );
    press('g', {}, document.body);
    press('h', {}, document.body);
    act(() => screen.getByRole('button', { name: 'chs' }).click());
    press('g', {}, document.body);
    press('h', {}, document.body);
    expect(navigate.mock.calls).toEqual([['/studies'], ['/registry']]);
  });
});
