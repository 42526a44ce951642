import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearch } from 'wouter';
import type { Learning } from '../../../contract/learning';
import { useCommands } from '@/lib/commands';
import { errorText } from '@/lib/errorText';
import { isSessionEndingError } from '@/lib/http';
import { statusOf, useSessionSelector } from '@/lib/session';
import { useLoad } from '@/lib/useLoad';
import { Alert } from '@/ui/Alert';
import { Spinner } from '@/ui/Spinner';
import { learningApi } from './api';
import { categoryLabel } from './category';
import { learningListCommands, type LearningListContext } from './commands';
import { LearningFrame } from './LearningFrame';
import { lastOpenedVideo, learningPath, LEARNING_LIST_PATH, noteOpened } from './paths';
import { formatDuration } from './progress';
import { ProgressBar } from './ProgressBar';

const PAGE = 50;
const SEARCH_DELAY_MS = 250;

/**
 * /learning (areas §2, unguarded): the training videos with their poster, length and category, searchable and
 * filtered by category; signed in, each shows how much of it the account has watched. ↑/↓ walk the rows, Enter
 * opens one, / goes to the search.
 */
export default function LearningListPage() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const params = new URLSearchParams(useSearch());
  const q = params.get('q') ?? '';
  const category = params.get('category') ?? '';
  const status = useSessionSelector(statusOf);
  const [text, setText] = useState(q);
  const [skip, setSkip] = useState(0);
  // The row in hand, by id, so it stays on its video when the page changes under it.
  const [activeId, setActiveId] = useState<number | null>(lastOpenedVideo);
  const searchRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const listId = useId();

  const setQuery = (next: { q?: string; category?: string }) => {
    const search = new URLSearchParams();
    const nq = (next.q ?? q).trim();
    const nc = next.category ?? category;
    if (nq) search.set('q', nq);
    if (nc) search.set('category', nc);
    const qs = search.toString();
    setSkip(0);
    navigate(qs ? `${LEARNING_LIST_PATH}?${qs}` : LEARNING_LIST_PATH, { replace: true });
  };

  // The search follows the typing after a short pause.
  useEffect(() => {
    if (text.trim() === q) return;
    const timer = setTimeout(() => setQuery({ q: text }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  });

  // Progress belongs to the session: asked again when it starts or ends; nothing while it is being restored.
  const signedIn = status === 'ready';
  const key = status === 'loading' ? null : `learning:list:${q}:${category}:${skip}:${signedIn}`;
  const page = useLoad(key, (signal) => learningApi.list({ q, category, skip, limit: PAGE }, { signal }));
  const items = page.data?.items ?? [];

  const found = items.findIndex((i) => i.id === activeId);
  const active = found >= 0 ? found : 0;

  useEffect(() => {
    listRef.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  const open = (item: Learning | undefined) => {
    if (!item) return;
    noteOpened(item.id);
    navigate(learningPath(item.id));
  };

  const ctx: LearningListContext = {
    rows: items.length,
    move: (step) => {
      setActiveId(items[Math.min(items.length - 1, Math.max(0, active + step))]?.id ?? null);
      listRef.current?.focus({ preventScroll: true });
    },
    open: () => open(items[active]),
    focusSearch: () => searchRef.current?.select(),
  };
  useCommands(learningListCommands, ctx);

  const categories = page.data?.categories ?? (category ? [category] : []);
  const activeItem = items[active];

  return (
    <LearningFrame title={t('learning.title')}>
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <h1 className="text-base font-semibold">{t('learning.title')}</h1>
        {page.data && <span className="text-xs text-fg-muted" data-testid="learning-total">{t('learning.list.total', { count: page.data.total })}</span>}
        <div className="ml-auto flex items-center gap-2">
          <input
            ref={searchRef}
            type="search"
            className="input w-64"
            value={text}
            placeholder={t('learning.list.searchPlaceholder')}
            aria-label={t('learning.list.search')}
            maxLength={64}
            data-testid="learning-search"
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown' || e.key === 'Enter') {
                e.preventDefault();
                if (e.key === 'Enter' && text.trim() !== q) setQuery({ q: text });
                listRef.current?.focus();
              }
            }}
          />
          <select
            className="input w-40"
            value={category}
            aria-label={t('learning.list.category')}
            data-testid="learning-category"
            onChange={(e) => setQuery({ category: e.target.value })}
          >
            <option value="">{t('learning.list.allCategories')}</option>
            {categories.map((c) => <option key={c} value={c}>{categoryLabel(t, c)}</option>)}
          </select>
        </div>
      </div>
      {!signedIn && status !== 'loading' && <p className="mb-3 text-xs text-fg-muted">{t('learning.list.signInForProgress')}</p>}

      {page.error && !isSessionEndingError(page.error) ? (
        <div className="flex max-w-md flex-col gap-3">
          <Alert>{errorText(t, page.error)}</Alert>
          <div><button type="button" className="btn" onClick={page.reload}>{t('common.retry')}</button></div>
        </div>
      ) : !page.data ? (
        <div className="flex items-center justify-center py-12"><Spinner label={t('common.loading')} /></div>
      ) : items.length === 0 ? (
        <p className="py-8 text-center text-[13px] text-fg-muted" data-testid="learning-empty">{q || category ? t('learning.list.noMatch') : t('learning.list.none')}</p>
      ) : (
        <div
          ref={listRef}
          id={listId}
          role="listbox"
          tabIndex={0}
          aria-label={t('learning.title')}
          aria-activedescendant={activeItem ? `${listId}-${activeItem.id}` : undefined}
          className={`divide-y divide-line overflow-hidden rounded-md border border-line bg-surface focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-[var(--focus)] ${page.stale ? 'opacity-60' : ''}`}
          data-testid="learning-list"
        >
          {items.map((item, index) => (
            <Row key={item.id} item={item} index={index} id={`${listId}-${item.id}`} active={index === active} onOpen={() => { noteOpened(item.id); setActiveId(item.id); }} />
          ))}
        </div>
      )}
      {page.data && page.data.total > PAGE && (
        <div className="mt-3 flex items-center justify-end gap-2 text-xs text-fg-muted">
          <span>{t('learning.list.range', { from: skip + 1, to: skip + items.length, total: page.data.total })}</span>
          <button type="button" className="btn" disabled={skip === 0} onClick={() => setSkip(Math.max(0, skip - PAGE))}>{t('learning.list.previousPage')}</button>
          <button type="button" className="btn" disabled={skip + PAGE >= page.data.total} onClick={() => setSkip(skip + PAGE)}>{t('learning.list.nextPage')}</button>
        </div>
      )}
    </LearningFrame>
  );
}

function Row({ item, index, id, active, onOpen }: { item: Learning; index: number; id: string; active: boolean; onOpen: () => void }) {
  const { t } = useTranslation();
  return (
    <Link
      href={learningPath(item.id)}
      id={id}
      role="option"
      aria-selected={active}
      tabIndex={-1}
      data-index={index}
      data-testid="learning-row"
      data-id={item.id}
      onClick={onOpen}
      className={`flex items-center gap-4 px-3 py-2 ${active ? 'bg-accent-soft' : 'hover:bg-sunken'}`}
    >
      <div className="relative aspect-video w-32 shrink-0 overflow-hidden rounded border border-line bg-sunken">
        {item.posterUrl && <img src={item.posterUrl} alt="" className="h-full w-full object-cover" loading="lazy" />}
        <span className="absolute right-1 bottom-1 rounded bg-black/70 px-1 text-[11px] text-white tabular-nums">{formatDuration(item.durationSec)}</span>
      </div>
      <div className="min-w-0 flex-1">
        <div className="truncate font-medium text-fg" data-testid="learning-row-title">{item.title}</div>
        <div className="mt-0.5 line-clamp-2 text-xs text-fg-muted">{item.description}</div>
      </div>
      {item.category && <span className="shrink-0 rounded border border-line px-1.5 py-0.5 text-xs text-fg-muted">{categoryLabel(t, item.category)}</span>}
      {item.progress && <ProgressBar progress={item.progress} durationSec={item.durationSec} className="w-44 shrink-0" />}
    </Link>
  );
}
