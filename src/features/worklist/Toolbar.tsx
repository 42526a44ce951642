import { memo, useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { FREE_TEXT_MIN_CHARS } from '../../../contract/constants';
import { UploadEntry } from '@/features/upload';
import { ColumnsMenu } from './ColumnsMenu';
import type { ColumnPrefs } from './columnPrefs';
import { QUICK_MODALITIES, REPORT_ORIGINS, WORK_FILTERS, advancedCount, type ReportOrigin, type WorklistView } from './view';

interface ToolbarProps {
  view: WorklistView;
  total: number | null;
  searchRef: RefObject<HTMLInputElement | null>;
  onView: (view: WorklistView, options?: { replace?: boolean }) => void;
  advancedOpen: boolean;
  onToggleAdvanced: () => void;
  canExport: boolean;
  exportBusy: boolean;
  onExport: () => void;
  onRefresh: () => void;
  prefs: ColumnPrefs;
  onPrefs: (change: (current: ColumnPrefs) => ColumnPrefs) => void;
  onResetPrefs: () => void;
}

function Key({ children }: { children: ReactNode }) {
  return <kbd className="ml-1 rounded border border-line px-1 font-sans text-[10px] leading-4 text-fg-subtle">{children}</kbd>;
}

function Chip({ active, onClick, children, title }: { active: boolean; onClick: () => void; children: ReactNode; title?: string }) {
  return (
    <button
      type="button"
      aria-pressed={active}
      title={title}
      onClick={onClick}
      className={`inline-flex h-7 items-center rounded-md border px-2 text-[13px] whitespace-nowrap ${active ? 'border-accent bg-accent-soft font-medium text-fg' : 'border-line bg-surface text-fg-muted hover:text-fg'}`}
    >
      {children}
    </button>
  );
}

/** Tabs, quick filters, report origin, free-text search and the list's actions, in one dense line. */
export const Toolbar = memo(function Toolbar(props: ToolbarProps) {
  const { view, total, searchRef, onView, advancedOpen, onToggleAdvanced, canExport, exportBusy, onExport, onRefresh, prefs, onPrefs, onResetPrefs } = props;
  const { t, i18n } = useTranslation();
  const [text, setText] = useState(view.text);
  const applied = useRef(view.text);

  // The URL wins when it changes from elsewhere (Back, a link, Esc clearing filters).
  useEffect(() => {
    if (view.text !== applied.current) {
      applied.current = view.text;
      setText(view.text);
    }
  }, [view.text]);

  // Typing searches after a pause, once the text is long enough (core §5: more than 2 characters) or cleared.
  useEffect(() => {
    const value = text.trim();
    if (value === applied.current.trim() || (value.length > 0 && value.length < FREE_TEXT_MIN_CHARS)) return;
    const timer = setTimeout(() => {
      applied.current = value;
      onView({ ...view, text: value });
    }, 400);
    return () => clearTimeout(timer);
  }, [text, view, onView]);

  const tooShort = text.trim().length > 0 && text.trim().length < FREE_TEXT_MIN_CHARS;
  const advanced = advancedCount(view);
  const number = new Intl.NumberFormat(i18n.language === 'en' ? 'en' : 'zh-CN');

  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5 border-b border-line bg-surface px-3 py-1.5">
      <div role="tablist" aria-label={t('worklist.tabs.label')} className="flex h-7 items-stretch rounded-md border border-line p-0.5">
        {(['all', 'mine'] as const).map((tab) => (
          <button
            key={tab}
            type="button"
            role="tab"
            aria-selected={view.tab === tab}
            onClick={() => onView({ ...view, tab })}
            className={`rounded px-2.5 text-[13px] ${view.tab === tab ? 'bg-accent text-accent-fg' : 'text-fg-muted hover:text-fg'}`}
          >
            {t(`worklist.tabs.${tab}`)}
          </button>
        ))}
      </div>

      <div role="group" aria-label={t('worklist.quick.label')} className="flex items-center gap-1">
        <Chip active={view.today} onClick={() => onView({ ...view, today: !view.today })}>
          {t('worklist.quick.today')}<Key>1</Key>
        </Chip>
        {QUICK_MODALITIES.map((modality, i) => (
          <Chip key={modality} active={view.quick === modality} onClick={() => onView({ ...view, quick: view.quick === modality ? null : modality })}>
            {t(`worklist.quick.${modality}`)}<Key>{i + 2}</Key>
          </Chip>
        ))}
        {WORK_FILTERS.map((filter, i) => (
          <Chip key={filter} active={view.work === filter} onClick={() => onView({ ...view, work: view.work === filter ? null : filter })}>
            {t(`worklist.work.${filter}`)}<Key>{i + 6}</Key>
          </Chip>
        ))}
      </div>

      <label className="flex items-center gap-1.5 text-[13px] text-fg-muted">
        <span className="sr-only">{t('worklist.origin.label')}</span>
        <select
          className="input h-7 w-auto py-0 pr-6 text-[13px]"
          value={view.origin ?? ''}
          onChange={(e) => onView({ ...view, origin: (e.target.value || null) as ReportOrigin | null })}
          aria-label={t('worklist.origin.label')}
        >
          <option value="">{t('worklist.origin.all')}</option>
          {REPORT_ORIGINS.map((origin) => (
            <option key={origin} value={origin}>{t(`worklist.origin.${origin}`)}</option>
          ))}
        </select>
      </label>

      <div className="relative flex min-w-48 flex-1 items-center sm:max-w-xs">
        <input
          ref={searchRef}
          type="search"
          className="input h-7 pr-8 text-[13px]"
          placeholder={t('worklist.search.placeholder')}
          aria-label={t('worklist.search.label')}
          aria-describedby="worklist-search-hint"
          value={text}
          maxLength={64}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !tooShort) {
              applied.current = text.trim();
              onView({ ...view, text: text.trim() });
            } else if (e.key === 'Escape') {
              // Leaves the box for the grid; the text stays searched.
              e.preventDefault();
              e.currentTarget.blur();
              document.querySelector<HTMLElement>('[data-testid="worklist-grid"]')?.focus();
            }
          }}
        />
        <span aria-hidden="true" className="pointer-events-none absolute right-2"><Key>/</Key></span>
        <span id="worklist-search-hint" role="status" className={tooShort ? 'absolute top-full left-0 z-20 mt-0.5 rounded bg-raised px-1.5 py-0.5 text-xs text-warn shadow-lg' : 'sr-only'}>
          {tooShort ? t('worklist.search.tooShort', { count: FREE_TEXT_MIN_CHARS }) : ''}
        </span>
      </div>

      <button type="button" className={`btn h-7 px-2.5 text-[13px] ${advancedOpen || advanced ? 'border-accent' : ''}`} aria-expanded={advancedOpen} onClick={onToggleAdvanced}>
        {t('worklist.advanced.button')}
        {advanced > 0 && <span className="rounded-full bg-accent px-1.5 text-[11px] leading-4 text-accent-fg">{advanced}</span>}
        <Key>F</Key>
      </button>

      <Chip active={view.deleted} onClick={() => onView({ ...view, deleted: !view.deleted, sort: null })} title={t('worklist.deletedHint')}>
        {t('worklist.deleted')}
      </Chip>
      {/* Booked lines not performed yet stay out of the list unless asked for (contract/reportable.ts). */}
      <Chip active={view.booked} onClick={() => onView({ ...view, booked: !view.booked })} title={t('worklist.booked.hint')}>
        {t('worklist.booked.chip')}<Key>B</Key>
      </Chip>

      <div className="ml-auto flex items-center gap-1.5">
        {/* What the view holds, said with its count: what can be reported, or everything with the booked lines. */}
        <span className="text-[13px] whitespace-nowrap text-fg-muted tabular-nums" aria-live="polite" data-testid="worklist-total">
          {total === null ? '' : t(view.booked ? 'worklist.total' : 'worklist.totalReportable', { count: total, formatted: number.format(total) })}
        </span>
        <button type="button" className="icon-button" onClick={onRefresh} title={t('worklist.commands.refresh')} aria-label={t('worklist.commands.refresh')}>
          <svg width="15" height="15" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" aria-hidden="true"><path d="M20 11a8 8 0 1 0-2.3 5.7M20 4v7h-7" /></svg>
        </button>
        <ColumnsMenu prefs={prefs} onPrefs={onPrefs} onReset={onResetPrefs} />
        {canExport && (
          <button type="button" className="btn h-7 px-2.5 text-[13px]" onClick={onExport} disabled={exportBusy}>
            {t('worklist.export.button')}<Key>E</Key>
          </button>
        )}
        {/* The upload feature's public entry (button + Shift+U); nothing for accounts without exam_upload. */}
        <UploadEntry />
      </div>
    </div>
  );
});
