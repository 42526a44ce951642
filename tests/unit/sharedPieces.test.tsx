// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, renderHook, screen } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import en from '../../locales/en.json';
import type { UploadCodeInfo } from '../../contract/uploads';
import { useTypedQuery } from '@/features/admin/ui/useTypedQuery';
import { SearchPickDialog } from '@/features/consultations/detail/SearchPickDialog';
import { CodeGate, CodeTarget } from '@/features/upload/CodeGate';
import { useLeaveWarning } from '@/lib/useLeaveWarning';
import { PrintField } from '@/ui/PrintField';
import { standInForModalDialogs } from './support/dialogs';

/** The pieces issue 34 wrote once for two screens each. */
const i18n = i18next.createInstance();
beforeAll(async () => {
  standInForModalDialogs();
  await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false } });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});
const show = (node: React.ReactNode) => render(<I18nextProvider i18n={i18n}>{node}</I18nextProvider>);

describe('useTypedQuery', () => {
  it('takes the typed text as the query after the pause, trimmed, and only a new query goes back to the first page', () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useTypedQuery());
    act(() => result.current.setPage(3));
    act(() => result.current.setTyped('  ann'));
    expect(result.current.query).toBe('');
    act(() => { vi.advanceTimersByTime(250); });
    expect(result.current.query).toBe('ann');
    expect(result.current.page).toBe(0);
    act(() => result.current.setPage(2));
    act(() => result.current.setTyped('ann '));
    act(() => { vi.advanceTimersByTime(500); });
    expect(result.current.page).toBe(2);
  });
});

describe('useLeaveWarning', () => {
  it('asks before leaving only while it holds', () => {
    const { rerender, unmount } = renderHook(({ when }) => useLeaveWarning(when), { initialProps: { when: false } });
    const leave = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(leave()).toBe(false);
    rerender({ when: true });
    expect(leave()).toBe(true);
    unmount();
    expect(leave()).toBe(false);
  });
});

describe('PrintField', () => {
  it('shows a dash for an empty value and takes the row when wide', () => {
    const { container } = render(<><PrintField label="Name">{''}</PrintField><PrintField label="Note" wide>text</PrintField></>);
    const [empty, wide] = Array.from(container.querySelectorAll('.print-field'));
    expect(empty!.querySelector('.print-value')!.textContent).toBe('—');
    expect(wide!.className).toContain('print-field-wide');
    expect(wide!.querySelector('.print-value')!.textContent).toBe('text');
  });
});

describe('CodeGate', () => {
  const info: UploadCodeInfo = { kind: 'attachment', bucketName: 'North', expires: 0, exam: null } as unknown as UploadCodeInfo;
  it('says what is missing or wrong, else draws the form with what the code is for', () => {
    const form = vi.fn(() => <p>form</p>);
    show(<CodeGate code={null} info={null} error={null} kind="attachment">{form}</CodeGate>);
    expect(screen.getByRole('alert').textContent).toBe(en.upload.code.missing);
    cleanup();
    show(<CodeGate code="c1" info={info} error={null} kind="serviceOrder">{form}</CodeGate>);
    expect(screen.getByRole('alert').textContent).toBe(en.upload.code.wrongKind);
    expect(form).not.toHaveBeenCalled();
    cleanup();
    show(<CodeGate code="c1" info={info} error={null} kind="attachment">{(i, code) => <><CodeTarget info={i} className="x" /><p>{code}</p></>}</CodeGate>);
    expect(screen.getByText('c1')).toBeTruthy();
    expect(screen.getByText(/North/)).toBeTruthy();
  });
});

describe('SearchPickDialog', () => {
  it('focuses the search, lists the matches and picks the one pressed; says when nothing matches', () => {
    const onPick = vi.fn();
    const props = { title: 'Find', width: 500, searchLabel: 'Search', testId: 'find', text: 'a', onText: () => undefined, error: null,
      noMatch: 'Nothing', busy: false, onPick, onClose: () => undefined };
    show(<SearchPickDialog {...props} found={[{ id: 1, name: 'one' }, { id: 2, name: 'two' }]}>{(item) => <span>{item.name}</span>}</SearchPickDialog>);
    expect(document.activeElement).toBe(screen.getByTestId('find'));
    fireEvent.click(screen.getByRole('button', { name: 'two' }));
    expect(onPick).toHaveBeenCalledWith({ id: 2, name: 'two' });
    cleanup();
    show(<SearchPickDialog {...props} found={[]}>{() => null}</SearchPickDialog>);
    expect(screen.getByText('Nothing')).toBeTruthy();
  });
});
