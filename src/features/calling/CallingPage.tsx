import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import { CommandScope, useCommands } from '@/lib/commands';
import { errorText } from '@/lib/errorText';
import { isHttpError, isSessionEndingError, onSessionResumed } from '@/lib/http';
import { navigate, useSession } from '@/lib/session';
import { toasts } from '@/lib/toasts';
import { useLoad } from '@/lib/useLoad';
import { MAIN_CONTROL } from '@/lib/mainFocus';
import { callingApi, type DeskAction } from './api';
import { activeIndex, emptyHand, handReducer, pickedIn, type Hand, type HandEvent } from './board';
import { callingCommands, type CallingContext } from './commands';
import { CheckInDialog } from './desk/CheckInDialog';
import { RemoveDialog, ReturnDialog } from './desk/dialogs';
import { abilities, columnsOf, matches, targetOf, type DeskEntry } from './desk/model';
import { QueueColumn } from './desk/QueueColumn';
import { SettingsDialog } from './desk/SettingsDialog';
import { usePolling } from './desk/usePolling';
import { callingPath, idFrom } from './paths';
import { Alert } from '@/ui/Alert';
import { Spinner } from '@/ui/Spinner';
import { PageLoading, PageProblem } from '@/ui/LoadState';

const CALLING_ACTIONS = ['calling_call', 'calling_manage_queue'] as const;
/** The queues are read again this often (and after every action), so two operators see each other's calls. */
const POLL_MS = 4000;

/**
 * /calling (areas §2): the queue operator's screen. The organisation's queues side by side, each with its called
 * patient, the waiting list and the missed area; every action on a key (the `?` sheet lists them) and in the palette.
 */
export default function CallingPage() {
  const { t } = useTranslation();
  const { can } = useSession();
  const search = new URLSearchParams(useSearch());
  const orgs = useLoad('calling:orgs', (signal) => callingApi.organisations({ signal }));
  const desks = useMemo(() => (orgs.data ?? []).filter((o) => CALLING_ACTIONS.some((a) => can(a, o.id))), [orgs.data, can]);
  const bucketId = idFrom(search.get('bucketId')) ?? desks[0]?.id ?? null;

  if (orgs.error && !isSessionEndingError(orgs.error)) return <PageProblem text={errorText(t, orgs.error)} onRetry={orgs.reload} />;
  if (!orgs.data) return <PageLoading />;
  if (desks.length === 0 || bucketId === null) return <PageProblem text={t('calling.desk.noOrganisation')} />;
  return (
    <Desk key={bucketId} bucketId={bucketId} desks={desks} canCall={can('calling_call', bucketId)} canManage={can('calling_manage_queue', bucketId)} />
  );
}

function Desk({ bucketId, desks, canCall, canManage }: { bucketId: number; desks: { id: number; name: string }[]; canCall: boolean; canManage: boolean }) {
  const { t } = useTranslation();
  const ids = useId();
  const board = useLoad(`calling:board:${bucketId}`, (signal) => callingApi.board(bucketId, { signal }));
  const sessionOver = board.error !== null && isSessionEndingError(board.error);
  usePolling(board.reload, POLL_MS, !sessionOver);
  useEffect(() => onSessionResumed(board.reload), [board.reload]);

  const queues = useMemo(() => board.data?.queues ?? [], [board.data]);
  const [query, setQuery] = useState('');
  const visible = useMemo(() => (entry: DeskEntry) => matches(entry, query), [query]);
  const columns = useMemo(() => columnsOf(queues, visible), [queues, visible]);
  const [hand, setHand] = useState<Hand>(emptyHand);
  const dispatch = (event: HandEvent) => setHand((state) => handReducer(columns, state, event));
  const index = activeIndex(columns, hand);
  const queue = queues[index];
  const picked = pickedIn(columns[index], hand);
  const target = targetOf(queue, picked);
  const able = abilities(target);

  const [busy, setBusy] = useState(false);
  const [dialog, setDialog] = useState<{ kind: 'back' | 'remove'; entry: DeskEntry } | { kind: 'checkIn' | 'settings' } | null>(null);
  const searchRef = useRef<HTMLInputElement>(null);

  const run = async (call: () => Promise<unknown>, done: (result: unknown) => string | null) => {
    if (busy) return;
    setBusy(true);
    try {
      const result = await call();
      const message = done(result);
      if (message) toasts.show({ message, kind: 'success', duration: 2500 });
      setDialog(null);
    } catch (error) {
      if (!isSessionEndingError(error)) toasts.show({ message: errorText(t, error), kind: isHttpError(error) && error.status === 409 ? 'warning' : 'error' });
    } finally {
      setBusy(false);
      board.reload();
    }
  };

  const callNext = () => {
    if (!queue) return;
    dispatch({ type: 'drop' });
    void run(() => callingApi.callNext(bucketId, queue), (called) => {
      const entry = called as DeskEntry | null;
      return entry ? t('calling.toast.called', { number: entry.number }) : t('calling.toast.empty');
    });
  };
  const act = (entry: DeskEntry, action: DeskAction, position?: number) => {
    void run(() => callingApi.act(entry, action, position), () => t(`calling.toast.${action}`, { number: entry.number }));
  };

  const onColumnAction = (queueIndex: number, action: 'next' | 'recall' | 'pass' | 'done' | 'back', entry: DeskEntry | null) => {
    const column = columns[queueIndex];
    if (column) dispatch({ type: 'go', index: queueIndex });
    if (action === 'next') {
      const q = queues[queueIndex];
      if (!q) return;
      dispatch({ type: 'drop' });
      void run(() => callingApi.callNext(bucketId, q), (called) => {
        const e = called as DeskEntry | null;
        return e ? t('calling.toast.called', { number: e.number }) : t('calling.toast.empty');
      });
    } else if (entry) {
      if (action === 'back') setDialog({ kind: 'back', entry });
      else act(entry, action);
    }
  };

  const canCheckIn = canCall && queues.length > 0;
  const openCheckIn = () => setDialog({ kind: 'checkIn' });
  const openSettings = () => setDialog({ kind: 'settings' });
  /**
   * Every desk key acts or says why not (issue 32): the reason goes to the desk's status line. `why` answers the
   * reason an action cannot run now, null when it can.
   */
  const [notice, setNotice] = useState<string | null>(null);
  const why = (need: 'call' | 'waiting' | 'called' | 'target'): string | null => {
    if (!canCall) return t('calling.why.noRight');
    if (busy) return t('calling.why.busy');
    if (!queue) return t('calling.why.noQueue');
    if (need === 'waiting' && queue.waiting.length === 0) return t('calling.why.noneWaiting', { queue: queue.name });
    if (need === 'called' && !queue.current) return t('calling.why.nobodyCalled', { queue: queue.name });
    if (need === 'target' && !target) return t('calling.why.nobodyPicked', { queue: queue.name });
    return null;
  };
  const attempt = (reason: string | null, action: () => void) => {
    setNotice(reason);
    if (reason === null) action();
  };
  // U: the picked passed patient, else the one passed last here (this desk's last pass, else the missed list's last).
  const [lastPassed, setLastPassed] = useState<number | null>(null);
  const passedBack = able.back ? target : queue?.missed.find((e) => e.id === lastPassed) ?? queue?.missed.at(-1) ?? null;
  const context: CallingContext = {
    queues: queues.length,
    canCheckIn,
    canManage,
    callNext: () => attempt(why('waiting'), callNext),
    recall: () => attempt(why('called'), () => queue?.current && act(queue.current, 'recall')),
    pass: () => attempt(why('target') ?? (able.pass ? null : t('calling.why.alreadyPassed', { number: target?.number ?? '' })), () => {
      if (!target) return;
      setLastPassed(target.id);
      act(target, 'pass');
    }),
    back: () => attempt(why('call') ?? (passedBack ? null : t('calling.why.noneMissed', { queue: queue?.name ?? '' })), () => {
      if (!passedBack) return;
      if (!able.back) dispatch({ type: 'pick', queue: passedBack.queueKey, id: passedBack.id });
      setDialog({ kind: 'back', entry: passedBack });
    }),
    remove: () => attempt(why('target'), () => target && setDialog({ kind: 'remove', entry: target })),
    done: () => attempt(why('target') ?? (able.done ? null : t('calling.why.notCalled', { number: target?.number ?? '' })), () => target && act(target, 'done')),
    move: (step) => dispatch({ type: 'move', step }),
    switchQueue: (step) => dispatch({ type: 'switch', step }),
    goQueue: (i) => dispatch({ type: 'go', index: i }),
    focusSearch: () => searchRef.current?.select(),
    checkIn: () => attempt(canCheckIn ? null : canCall ? t('calling.why.noQueue') : t('calling.why.noRight'), openCheckIn),
    settings: openSettings,
    refresh: board.reload,
  };
  useCommands(callingCommands, context);

  return (
    <CommandScope scope="calling">
      <div className="flex min-h-0 flex-1 flex-col" data-calling-desk>
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5 border-b border-line bg-surface px-3 py-2 text-[13px]">
          <h1 className="text-base font-semibold">{t('calling.title')}</h1>
          {desks.length > 1 && (
            <select aria-label={t('calling.desk.organisation')} className="input h-7 w-auto max-w-60 py-0 pr-6 text-[13px]" value={bucketId}
              onChange={(e) => navigate(callingPath(Number(e.target.value)))}>
              {desks.map((d) => <option key={d.id} value={d.id}>{d.name}</option>)}
            </select>
          )}
          <label htmlFor={`${ids}-search`} className="sr-only">{t('calling.desk.search')}</label>
          <input id={`${ids}-search`} ref={searchRef} type="search" className="input h-7 w-52 text-[13px]" placeholder={`${t('calling.desk.search')} (/)`}
            value={query} onChange={(e) => setQuery(e.target.value)} data-testid="calling-search"
            onKeyDown={(e) => {
              if (e.key === 'Escape') {
                e.preventDefault();
                setQuery('');
                e.currentTarget.blur();
              } else if (e.key === 'Enter') {
                // Enter picks the first patient found and gives the keys back to the queues.
                e.preventDefault();
                const found = columns.findIndex((c) => c.ids.length > 0);
                if (found >= 0) dispatch({ type: 'pick', queue: columns[found]!.key, id: columns[found]!.ids[0]! });
                e.currentTarget.blur();
              }
            }} />
          {board.data?.privacy && <span className="rounded border border-line px-1.5 py-0.5 text-xs text-fg-muted" title={t('calling.desk.privacyHint')}>{t('calling.desk.privacy')}</span>}
          <div className="ml-auto flex items-center gap-1.5">
            {board.loading && !board.data && <Spinner label={t('common.loading')} />}
            <button type="button" className="btn h-7 px-2 text-xs" disabled={!canCheckIn} onClick={openCheckIn} title={`${t('calling.commands.checkIn')} (C)`} data-testid="calling-check-in">
              {t('calling.desk.checkIn')}
            </button>
            {canManage && (
              <button type="button" className="btn h-7 px-2 text-xs" onClick={openSettings} data-testid="calling-settings">{t('calling.desk.settings')}</button>
            )}
            <button type="button" className="icon-button" onClick={board.reload} aria-label={t('calling.commands.refresh')} title={t('calling.commands.refresh')}>
              <span aria-hidden="true">↻</span>
            </button>
          </div>
        </div>
        {board.error !== null && !sessionOver && (
          <div className="border-b border-line px-3 py-2"><Alert>{errorText(t, board.error)}</Alert></div>
        )}
        {!board.data ? (
          board.error !== null ? null : <PageLoading />
        ) : queues.length === 0 ? (
          <div className="mx-auto mt-12 flex max-w-md flex-col items-center gap-3 px-4 text-center text-[13px] text-fg-muted">
            <p data-testid="calling-no-queues">{t('calling.desk.noQueues')}</p>
            {canManage && <button type="button" className="btn btn-primary" onClick={openSettings}>{t('calling.desk.addQueue')}</button>}
          </div>
        ) : (
          <div className="flex min-h-0 flex-1 overflow-x-auto bg-bg outline-none focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-focus"
            tabIndex={0} role="group" aria-label={t('calling.desk.queues')} aria-describedby={`${ids}-status`} data-testid="calling-queues" {...MAIN_CONTROL}>
            {queues.map((q, i) => (
              <QueueColumn key={q.key} queue={q} index={i} active={i === index} picked={i === index ? picked : pickedIn(columns[i], hand)} visible={visible}
                onPick={(id) => dispatch({ type: 'pick', queue: q.key, id })} onAction={(action, entry) => onColumnAction(i, action, entry)} />
            ))}
          </div>
        )}
        <p id={`${ids}-status`} role="status" aria-live="polite" data-testid="calling-status"
          className={`border-t border-line bg-surface px-3 py-1.5 text-xs ${notice ? 'font-medium text-warn' : 'text-fg-subtle'}`}>
          {notice ?? t('calling.desk.keys')}
        </p>
      </div>
      <ReturnDialog entry={dialog?.kind === 'back' ? dialog.entry : null} waiting={queue?.waitingCount ?? 0} busy={busy}
        onCancel={() => setDialog(null)} onConfirm={(entry, position) => act(entry, 'back', position)} />
      <RemoveDialog entry={dialog?.kind === 'remove' ? dialog.entry : null} busy={busy}
        onCancel={() => setDialog(null)} onConfirm={(entry) => act(entry, 'remove')} />
      {dialog?.kind === 'checkIn' && (
        <CheckInDialog bucketId={bucketId} queues={queues} initialQueue={queue?.key ?? null} onClose={() => setDialog(null)}
          onDone={(entry) => {
            setDialog(null);
            toasts.show({ message: t('calling.toast.checkedIn', { number: entry.number }), kind: 'success', duration: 2500 });
            board.reload();
          }} />
      )}
      {dialog?.kind === 'settings' && <SettingsDialog bucketId={bucketId} onClose={() => { setDialog(null); board.reload(); }} />}
    </CommandScope>
  );
}
