// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import en from '../../locales/en.json';
import type { AccountSuggestion } from '../../contract/accounts';
import { AssignDialog } from '@/features/report/actions/AssignDialog';
import { reportView } from './reportWorkspace.fixtures';
import { standInForModalDialogs } from './support/dialogs';

const asked = vi.hoisted(() => [] as { path: string; query: Record<string, unknown> }[]);
const WRITERS: AccountSuggestion[] = [
  { id: 1, username: 'admin', name: '系统管理员' },
  { id: 2, username: 'rad1', name: '李明' },
  { id: 3, username: 'rad2', name: '王芳' },
];
vi.mock('@/lib/http', async (original) => ({
  ...(await original<object>()),
  http: {
    get: (path: string, options: { query: Record<string, unknown> }) => {
      asked.push({ path, query: options.query });
      const q = String(options.query.q ?? '').toLowerCase();
      return Promise.resolve(WRITERS.filter((a) => a.username.includes(q) || a.name.includes(q)));
    },
  },
}));

beforeAll(() => {
  standInForModalDialogs();
});
beforeEach(() => {
  asked.length = 0;
  vi.useFakeTimers({ shouldAdvanceTime: true });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false } });

function open(report = reportView({ bucketId: 5, creator: null, status: 'none', lifecycleStatus: 'none' })) {
  const onAssign = vi.fn();
  const onCancel = vi.fn();
  render(
    <I18nextProvider i18n={i18n}>
      <AssignDialog report={report} busy={false} onAssign={onAssign} onCancel={onCancel} />
    </I18nextProvider>,
  );
  return { onAssign, onCancel };
}

const settle = () => act(async () => { await vi.advanceTimersByTimeAsync(200); });

describe('the assign dialog', () => {
  it('asks for the report organisation\'s report writers, and Enter assigns the one chosen with the arrows', async () => {
    const { onAssign } = open();
    await settle();
    expect(asked[0]).toEqual({ path: 'accounts/suggestions', query: { q: '', bucketId: 5, action: 'report_upsert' } });
    const search = screen.getByRole('combobox');
    expect(document.activeElement).toBe(search);
    expect(screen.getAllByRole('option').map((o) => o.getAttribute('aria-selected'))).toEqual(['true', 'false', 'false']);
    fireEvent.keyDown(search, { key: 'ArrowDown' });
    fireEvent.keyDown(search, { key: 'ArrowDown' });
    expect(search.getAttribute('aria-activedescendant')).toBe(screen.getByRole('option', { name: /王芳/ }).id);
    fireEvent.keyDown(search, { key: 'Enter' });
    expect(onAssign).toHaveBeenCalledWith(WRITERS[2]);
  });

  it('narrows as one types, after a pause, and says so when nobody matches', async () => {
    open();
    await settle();
    fireEvent.change(screen.getByRole('combobox'), { target: { value: 'rad2' } });
    await settle();
    expect(asked.at(-1)?.query).toEqual({ q: 'rad2', bucketId: 5, action: 'report_upsert' });
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['王芳rad2']);
    fireEvent.change(screen.getByRole('combobox'), { target: { value: 'nobody' } });
    await settle();
    expect(screen.getByText('No report writer of this organisation matches.')).toBeTruthy();
  });

  it('shows the current assignee, starts past them and never assigns them again', async () => {
    const { onAssign } = open(reportView({ bucketId: 5, assignee: { id: 1, name: '系统管理员' }, creator: { id: 2, name: '李明' } }));
    await settle();
    expect(screen.getByText('Assigned to 系统管理员')).toBeTruthy();
    expect(screen.getByText(/李明 has begun this draft/)).toBeTruthy();
    const options = screen.getAllByRole('option');
    expect(options[0]!.getAttribute('aria-disabled')).toBe('true');
    expect(options[1]!.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(screen.getByRole('combobox'), { key: 'ArrowUp' });
    fireEvent.keyDown(screen.getByRole('combobox'), { key: 'Enter' });
    expect(onAssign).not.toHaveBeenCalled();
    expect((screen.getByRole('button', { name: 'Assign' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
