import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '@/lib/format';
import { MppsBadge } from '@/ui/MppsBadge';
import type { DeskEntry, DeskQueue } from './model';

/**
 * One queue as a column: its name, room and modality; the called patient (number, name, exam, called time, how
 * many calls); the waiting list in order; the missed area. A click picks a patient (the keys then act on them).
 */
export function QueueColumn({ queue, index, active, picked, visible, onPick, onAction }: {
  queue: DeskQueue;
  index: number;
  active: boolean;
  picked: number | null;
  visible: (entry: DeskEntry) => boolean;
  onPick: (id: number | null) => void;
  onAction: (action: 'next' | 'recall' | 'pass' | 'done' | 'back', entry: DeskEntry | null) => void;
}) {
  const { t } = useTranslation();
  const waiting = queue.waiting.filter(visible);
  const missed = queue.missed.filter(visible);
  const current = queue.current && visible(queue.current) ? queue.current : null;
  return (
    <section aria-label={queue.name} data-testid="calling-queue" data-queue={queue.key} data-active={active}
      className={`flex w-[300px] min-w-[260px] shrink-0 flex-col border-r border-line bg-surface ${active ? 'outline-2 -outline-offset-2 outline-accent' : ''}`}
      onClick={(e) => e.target === e.currentTarget && onPick(null)}>
      <header className="flex items-baseline gap-2 border-b border-line px-3 py-2">
        <kbd className="rounded border border-line px-1 text-[11px] text-fg-muted" title={t('calling.desk.queueKey', { n: index + 1 })}>{index < 9 ? index + 1 : ''}</kbd>
        <h2 className="min-w-0 truncate text-sm font-semibold">{queue.name}</h2>
        <span className="ml-auto shrink-0 text-xs text-fg-muted">
          {[queue.room, queue.modality].filter(Boolean).join(' · ')}
        </span>
      </header>

      <div className="border-b border-line py-2" data-testid="calling-current">
        <div className="mb-1 flex items-center justify-between px-3 text-xs font-medium text-fg-muted">
          <span>{t('calling.desk.current')}</span>
          <button type="button" className="btn btn-primary h-6 px-2 text-xs" disabled={queue.waiting.length === 0}
            title={`${t('calling.commands.next')} (N)`} onClick={() => onAction('next', null)} data-testid="calling-next">
            {t('calling.desk.callNext')}
          </button>
        </div>
        {current ? (
          <>
            <EntryRow entry={current} picked={picked === current.id} onPick={onPick} big />
            <div className="mt-1 flex gap-1 px-3">
              <button type="button" className="btn h-6 px-1.5 text-xs" title={`${t('calling.commands.recall')} (R)`} onClick={() => onAction('recall', current)}>{t('calling.desk.recall')}</button>
              <button type="button" className="btn h-6 px-1.5 text-xs" title={`${t('calling.commands.pass')} (P)`} onClick={() => onAction('pass', current)}>{t('calling.desk.pass')}</button>
              <button type="button" className="btn h-6 px-1.5 text-xs" title={`${t('calling.commands.done')} (D)`} onClick={() => onAction('done', current)}>{t('calling.desk.done')}</button>
            </div>
          </>
        ) : (
          <p className="px-3 py-2 text-[13px] text-fg-muted">{t('calling.desk.nobodyCalled')}</p>
        )}
      </div>

      <div className="flex min-h-0 flex-1 flex-col overflow-auto">
        <h3 className="sticky top-0 flex justify-between bg-surface px-3 pt-2 pb-1 text-xs font-medium text-fg-muted">
          <span>{t('calling.desk.waiting')}</span>
          <span className="tabular-nums">{queue.waitingCount}</span>
        </h3>
        {waiting.length === 0 ? (
          <p className="px-3 pb-2 text-[13px] text-fg-subtle">{t('calling.desk.noneWaiting')}</p>
        ) : (
          <ol className="flex flex-col">
            {waiting.map((entry) => (
              <li key={entry.id}><EntryRow entry={entry} picked={picked === entry.id} onPick={onPick} position={queue.waiting.indexOf(entry) + 1} /></li>
            ))}
          </ol>
        )}
        <h3 className="sticky top-0 mt-2 flex justify-between border-t border-line bg-surface px-3 pt-2 pb-1 text-xs font-medium text-fg-muted">
          <span>{t('calling.desk.missed')}</span>
          <span className="tabular-nums">{queue.missedCount}</span>
        </h3>
        {missed.length === 0 ? (
          <p className="px-3 pb-2 text-[13px] text-fg-subtle">{t('calling.desk.noneMissed')}</p>
        ) : (
          <ul className="flex flex-col pb-2">
            {missed.map((entry) => (
              <li key={entry.id}>
                <EntryRow entry={entry} picked={picked === entry.id} onPick={onPick}>
                  <button type="button" className="btn h-6 px-1.5 text-xs" title={`${t('calling.commands.back')} (U)`} onClick={() => onAction('back', entry)}>{t('calling.desk.back')}</button>
                </EntryRow>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

function EntryRow({ entry, picked, onPick, position, big = false, children }: {
  entry: DeskEntry;
  picked: boolean;
  onPick: (id: number) => void;
  position?: number;
  big?: boolean;
  children?: React.ReactNode;
}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (picked) ref.current?.scrollIntoView({ block: 'nearest' });
  }, [picked]);
  return (
    <div ref={ref} aria-current={picked || undefined} data-picked={picked} data-entry-id={entry.id} data-state={entry.state} data-testid="calling-entry"
      onClick={() => onPick(entry.id)}
      className={`flex cursor-default items-center gap-2 px-3 ${big ? 'py-1.5' : 'py-1'} text-[13px] ${picked ? 'bg-accent-soft' : 'hover:bg-sunken'} ${entry.state === 'passed' ? 'text-fg-muted' : ''}`}>
      {position !== undefined && <span className="w-5 shrink-0 text-right text-xs text-fg-subtle tabular-nums">{position}</span>}
      <span className={`shrink-0 font-semibold tabular-nums ${big ? 'text-2xl leading-none text-accent' : ''}`} data-testid="calling-number">{entry.number}</span>
      <span className="min-w-0 flex-1">
        <span className="block truncate">{entry.name}</span>
        <span className="block truncate text-xs text-fg-muted">{entry.exam}</span>
        {entry.mpps && <span className="mt-0.5 block" data-testid="calling-mpps"><MppsBadge mpps={entry.mpps} /></span>}
        {big && entry.calledAt && (
          <span className="block truncate text-xs text-fg-muted tabular-nums" data-testid="calling-called-at">
            {t('calling.desk.calledAt', { time: formatTime(entry.calledAt) })} · {t('calling.desk.calls', { count: entry.calls })}
          </span>
        )}
      </span>
      {children && <span className="shrink-0" onClick={(e) => e.stopPropagation()}>{children}</span>}
    </div>
  );
}
