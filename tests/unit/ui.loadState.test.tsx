// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import en from '../../locales/en.json';
import { HttpError } from '@/lib/http/errors';
import { EmptyState, LoadError, LoadState, PageLoading, PageProblem } from '@/ui/LoadState';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false } });
});
afterEach(cleanup);

const show = (node: React.ReactNode) => render(<I18nextProvider i18n={i18n}>{node}</I18nextProvider>);

describe('LoadState: what a screen shows before its data', () => {
  it('a spinner while there is no error, placed as asked', () => {
    const { container } = show(<LoadState error={null} onRetry={() => undefined} />);
    expect(screen.getByRole('status').textContent).toBe(en.common.loading);
    expect((container.firstChild as HTMLElement).className).toBe('flex items-center justify-center py-12');
    cleanup();
    const page = show(<LoadState place="page" error={undefined} onRetry={() => undefined} />);
    expect((page.container.firstChild as HTMLElement).className).toBe('flex flex-1 items-center justify-center py-12');
  });

  it('the catalogue message and a retry that asks again', () => {
    const onRetry = vi.fn();
    show(<LoadState error={new HttpError('NotFound', 404, 'no such group')} onRetry={onRetry} />);
    expect(screen.getByRole('alert').textContent).toBe(en.errors.NotFound);
    expect(screen.queryByRole('status')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: en.common.retry }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('nothing when the session is ending (the sign-in takes over)', () => {
    const { container } = show(<LoadState error={new HttpError('TokenExpiredError', 401, 'expired')} onRetry={() => undefined} />);
    expect(container.innerHTML).toBe('');
  });
});

describe('LoadError and EmptyState', () => {
  it('a failure without a retry has no button; an empty list says its line under its test id', () => {
    show(<><LoadError text="Refused" testId="refused" /><EmptyState testId="none">Nothing here</EmptyState></>);
    expect(screen.getByTestId('refused').textContent).toBe('Refused');
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getByTestId('none').tagName).toBe('P');
    expect(screen.getByTestId('none').textContent).toBe('Nothing here');
  });
});

describe('PageProblem and PageLoading: a route alone on screen', () => {
  it('says the problem at the page width, with a retry only when there is one', () => {
    const onRetry = vi.fn();
    const { container } = show(<PageProblem text="No organisation" onRetry={onRetry} />);
    expect(screen.getByRole('alert').textContent).toContain('No organisation');
    expect((container.firstChild as HTMLElement).className).toContain('w-full');
    fireEvent.click(screen.getByRole('button', { name: en.common.retry }));
    expect(onRetry).toHaveBeenCalledOnce();
    cleanup();
    show(<PageProblem text="Not permitted" />);
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('shows a spinner in the free height', () => {
    const { container } = show(<PageLoading />);
    expect((container.firstChild as HTMLElement).className).toContain('flex-1');
    expect(container.querySelector('[role="status"]')).not.toBeNull();
  });
});
