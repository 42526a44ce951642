import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '@/lib/errorText';
import { formatTime } from '@/lib/format';
import { isSessionEndingError } from '@/lib/http';
import { useLoad } from '@/lib/useLoad';
import { Alert } from '@/ui/Alert';
import { Dialog } from '@/ui/Dialog';
import { Spinner } from '@/ui/Spinner';
import { callingApi } from '../api';
import type { DeskEntry, DeskQueue } from './model';

/**
 * "Check in to queue…" (C): today's arrived exams of the organisation, found by name, patient id or accession
 * number; ↑↓ choose, the queue select (the queue in hand, or the one of the exam's modality) and Enter checks in.
 */
export function CheckInDialog({ bucketId, queues, initialQueue, onClose, onDone }: {
  bucketId: number;
  queues: readonly DeskQueue[];
  initialQueue: string | null;
  onClose: () => void;
  onDone: (entry: DeskEntry) => void;
}) {
  const { t } = useTranslation();
  const ids = useId();
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState(0);
  const [queueKey, setQueueKey] = useState<string | null>(initialQueue);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);

  // The search goes out a moment after typing stops.
  useEffect(() => {
    const timer = setTimeout(() => setQuery(text.trim()), 200);
    return () => clearTimeout(timer);
  }, [text]);
  useEffect(() => {
    const frame = requestAnimationFrame(() => input.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, []);

  const found = useLoad(`calling:candidates:${bucketId}:${query}`, (signal) => callingApi.candidates(bucketId, query, { signal }));
  const rows = found.data ?? [];
  const pick = rows[Math.min(chosen, Math.max(0, rows.length - 1))] ?? null;
  // The exam's modality names its queue when the operator has not chosen one.
  const byModality = pick ? queues.find((q) => q.modality && q.modality === pick.modality)?.key ?? null : null;
  const target = queues.find((q) => q.key === (queueKey ?? byModality)) ?? queues[0] ?? null;

  const submit = async () => {
    if (!pick || !target || busy) return;
    setBusy(true);
    setFailure(null);
    try {
      onDone(await callingApi.checkIn(pick.examId, target.id));
    } catch (error) {
      if (!isSessionEndingError(error)) setFailure(errorText(t, error));
      found.reload();
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open title={t('calling.checkIn.title')} onCancel={busy ? undefined : onClose} width={560}>
      <form onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}>
        <div className="flex items-end gap-2">
          <label className="flex min-w-0 flex-1 flex-col gap-1 text-xs font-medium text-fg-muted">
            {t('calling.checkIn.search')}
            <input ref={input} type="search" className="input h-8 text-[13px]" value={text} data-testid="calling-check-in-search"
              aria-controls={`${ids}-list`} placeholder={t('calling.checkIn.placeholder')}
              onChange={(e) => {
                setText(e.target.value);
                setChosen(0);
              }}
              onKeyDown={(e) => {
                if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
                  e.preventDefault();
                  setChosen((c) => Math.min(Math.max(0, rows.length - 1), Math.max(0, c + (e.key === 'ArrowDown' ? 1 : -1))));
                }
              }} />
          </label>
          <label className="flex flex-col gap-1 text-xs font-medium text-fg-muted">
            {t('calling.checkIn.queue')}
            <select className="input h-8 w-auto py-0 pr-6 text-[13px]" value={target?.key ?? ''} onChange={(e) => setQueueKey(e.target.value)} data-testid="calling-check-in-queue">
              {queues.map((q) => <option key={q.key} value={q.key}>{q.room ? `${q.name} · ${q.room}` : q.name}</option>)}
            </select>
          </label>
        </div>
        <div id={`${ids}-list`} className="mt-3 max-h-72 min-h-24 overflow-auto rounded-md border border-line">
          {found.loading && !found.data ? (
            <div className="p-3"><Spinner label={t('common.loading')} /></div>
          ) : found.error && !isSessionEndingError(found.error) ? (
            <div className="p-2"><Alert>{errorText(t, found.error)}</Alert></div>
          ) : rows.length === 0 ? (
            <p className="p-3 text-[13px] text-fg-muted" data-testid="calling-check-in-none">{t('calling.checkIn.none')}</p>
          ) : (
            <ul className="flex flex-col" aria-label={t('calling.checkIn.results')}>
              {rows.map((row, i) => (
                <li key={row.examId}>
                  <label className={`flex cursor-pointer items-center gap-2 px-2 py-1.5 text-[13px] ${pick?.examId === row.examId ? 'bg-accent-soft' : 'hover:bg-sunken'}`}
                    data-testid="calling-candidate">
                    <input type="radio" name={`${ids}-exam`} checked={pick?.examId === row.examId} onChange={() => setChosen(i)} />
                    <span className="font-medium">{row.patientName}</span>
                    <span className="min-w-0 flex-1 truncate text-fg-muted">{row.exam}</span>
                    <span className="text-xs text-fg-subtle tabular-nums">{row.arrivedTime ? formatTime(row.arrivedTime) : ''}</span>
                  </label>
                </li>
              ))}
            </ul>
          )}
        </div>
        {failure && <div className="mt-2"><Alert>{failure}</Alert></div>}
        <div className="mt-4 flex justify-end gap-2">
          <button type="button" className="btn" onClick={onClose} disabled={busy}>{t('common.cancel')}</button>
          <button type="submit" className="btn btn-primary" disabled={busy || !pick || !target} data-testid="calling-check-in-confirm">{t('calling.checkIn.confirm')}</button>
        </div>
      </form>
    </Dialog>
  );
}
