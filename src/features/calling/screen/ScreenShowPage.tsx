import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearch } from 'wouter';
import type { Language } from '../../../../contract/constants';
import { CommandScope, useCommands, useKeyBindings } from '@/lib/commands';
import { screenCommands, type ScreenContext } from '../commands';
import { idFrom } from '../paths';
import { speechText, type SpeechTemplates } from '../speech';
import { announce, rememberSound, silence } from './announcer';
import { newCalls, type Announcement, type ScreenBoard, type ScreenQueue } from './model';
import { ttsUrl, useScreenStream } from './stream';
import './screen.css';

/** How long a call stays highlighted on the screen. */
const FRESH_MS = 5000;
/** How many waiting numbers each queue shows: one line of them, fewer when the cards are narrow. */
const NEXT_SHOWN = { xl: 5, lg: 4, md: 3, sm: 3 } as const;

const TEMPLATES: Record<Language, () => Promise<SpeechTemplates>> = {
  chs: () => import('../../../../locales/chs.json').then((m) => m.default.calling.speech),
  en: () => import('../../../../locales/en.json').then((m) => m.default.calling.speech),
  tib: () => import('../../../../locales/tib.json').then((m) => m.default.calling.speech),
};

/**
 * A screen nobody has chosen a theme on is dark (a TV in a waiting room reads best light on dark); the choice is
 * not stored, so an operator who peeks at the screen keeps their own theme elsewhere.
 */
function useDarkByDefault() {
  useEffect(() => {
    let chosen: string | null = null;
    try {
      chosen = localStorage.getItem('theme');
    } catch {
      // No storage: dark.
    }
    if (chosen === 'light' || chosen === 'dark') return;
    const root = document.documentElement;
    const before = { theme: root.dataset.theme, scheme: root.style.colorScheme };
    root.dataset.theme = 'dark';
    root.style.colorScheme = 'dark';
    return () => {
      if (before.theme) root.dataset.theme = before.theme;
      root.style.colorScheme = before.scheme;
    };
  }, []);
}

function useClock(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 10_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * /calling/{bucketId}/screen-show?token=… (areas §2): the waiting-room TV. Public: the long-lived screen token in the
 * address opens the organisation's stream (Server-Sent Events), which sends the whole state on connect and every
 * change after; a dropped connection comes back by itself. Each queue shows its room, the called number in very
 * large type (highlighted for a few seconds after a call) and the next numbers; each call is said aloud.
 */
export default function ScreenShowPage() {
  const { t } = useTranslation();
  const params = useParams<{ bucketId: string }>();
  const bucketId = idFrom(params.bucketId ?? null);
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  useDarkByDefault();
  useKeyBindings();
  const { board, status } = useScreenStream(bucketId, token);
  const now = useClock();

  // Calls to say, one after another; a call the browser would not play waits for a click on the overlay.
  const [blocked, setBlocked] = useState<Announcement[] | null>(null);
  const [fresh, setFresh] = useState<Record<string, string>>({});
  const previous = useRef<ScreenBoard | null>(null);
  const chain = useRef<Promise<void>>(Promise.resolve());
  const blockedRef = useRef(false);

  const say = useCallback((calls: Announcement[], language: Language, privacy: boolean) => {
    for (const call of calls) {
      chain.current = chain.current.then(async () => {
        if (blockedRef.current) {
          setBlocked((list) => [...(list ?? []), call]);
          return;
        }
        const text = speechText(await TEMPLATES[language](), call, privacy);
        const outcome = await announce(text, language, () => ttsUrl(bucketId ?? 0, token, text, language));
        if (outcome === 'blocked') {
          blockedRef.current = true;
          setBlocked((list) => [...(list ?? []), call]);
        }
      }).catch(() => undefined);
    }
  }, [bucketId, token]);

  useEffect(() => {
    if (!board) return;
    const calls = newCalls(previous.current, board);
    previous.current = board;
    if (calls.length === 0) return;
    setFresh((f) => ({ ...f, ...Object.fromEntries(calls.map((c) => [c.queue, c.stamp])) }));
    const timer = setTimeout(() => setFresh((f) => Object.fromEntries(Object.entries(f).filter(([q, s]) => !calls.some((c) => c.queue === q && c.stamp === s)))), FRESH_MS);
    say(calls, board.language, board.privacy);
    return () => clearTimeout(timer);
  }, [board, say]);

  useEffect(() => () => silence(), []);

  const enableSound = () => {
    rememberSound();
    blockedRef.current = false;
    const waiting = blocked ?? [];
    setBlocked(null);
    // The last call is the one that matters now; the click is the gesture the browser wanted.
    const last = waiting.at(-1);
    if (last && board) say([last], board.language, board.privacy);
  };

  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else void document.documentElement.requestFullscreen?.().catch(() => undefined);
  };
  const context: ScreenContext = { fullscreen: toggleFullscreen };
  useCommands(screenCommands, context);

  const queues = board?.queues ?? [];
  const size = queues.length <= 1 ? 'xl' : queues.length === 2 ? 'lg' : queues.length <= 4 ? 'md' : 'sm';

  return (
    <CommandScope scope="calling">
      <div className="flex min-h-screen flex-col bg-bg text-fg" data-calling-screen data-status={status}>
        <header className="flex shrink-0 items-center gap-4 border-b border-line px-[2vw] py-[1.2vh]">
          <h1 className="min-w-0 truncate text-[clamp(1.25rem,2.4vw,2.75rem)] font-semibold">{board?.title ?? t('calling.screen.title')}</h1>
          <span className="ml-auto flex items-center gap-2 text-[clamp(0.9rem,1.2vw,1.4rem)] text-fg-muted" data-testid="screen-connection">
            <span aria-hidden="true" className={`inline-block size-[0.7em] rounded-full ${status === 'live' ? 'bg-ok' : status === 'refused' ? 'bg-danger' : 'calling-reconnecting bg-warn'}`} />
            {status !== 'live' && <span>{t(`calling.screen.status.${status}`)}</span>}
          </span>
          <time className="text-[clamp(1.25rem,2.4vw,2.75rem)] font-semibold tabular-nums" dateTime={now.toISOString()}>
            {now.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hour12: false })}
          </time>
          <button type="button" className="icon-button size-10 text-fg-muted" onClick={toggleFullscreen}
            aria-label={t('calling.screen.fullscreen')} title={`${t('calling.screen.fullscreen')} (F)`} data-testid="screen-fullscreen">
            <svg viewBox="0 0 24 24" aria-hidden="true" className="size-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
              <path d="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5" />
            </svg>
          </button>
        </header>
        {status === 'refused' ? (
          <div className="flex flex-1 items-center justify-center p-8 text-center text-[clamp(1.25rem,2.5vw,2.5rem)] text-fg-muted" role="alert">
            {t('calling.screen.refused')}
          </div>
        ) : !board ? (
          <div className="flex flex-1 items-center justify-center text-[clamp(1.25rem,2.5vw,2.5rem)] text-fg-muted">{t('calling.screen.connecting')}</div>
        ) : queues.length === 0 ? (
          <div className="flex flex-1 items-center justify-center text-[clamp(1.25rem,2.5vw,2.5rem)] text-fg-muted">{t('calling.screen.noQueues')}</div>
        ) : (
          <main className={`grid flex-1 gap-[1.5vw] p-[1.5vw] ${queues.length === 1 ? 'grid-cols-1' : queues.length === 2 || queues.length === 4 ? 'grid-cols-2' : 'grid-cols-3'}`}>
            {queues.map((queue) => <QueueCard key={queue.key} queue={queue} size={size} fresh={queue.current !== null && fresh[queue.key] === queue.current.stamp} privacy={board.privacy} />)}
          </main>
        )}
        {blocked && (
          <button type="button" onClick={enableSound} data-testid="screen-enable-sound"
            className="fixed inset-0 z-50 flex flex-col items-center justify-center gap-4 bg-scrim text-center text-white">
            <span aria-hidden="true" className="text-[clamp(3rem,8vw,8rem)] leading-none">🔊</span>
            <span className="text-[clamp(1.5rem,3vw,3rem)] font-semibold">{t('calling.screen.enableSound')}</span>
            <span className="text-[clamp(1rem,1.6vw,1.6rem)] opacity-80">{t('calling.screen.enableSoundHint')}</span>
          </button>
        )}
      </div>
    </CommandScope>
  );
}

const NUMBER_SIZE = { xl: 'text-[clamp(5rem,20vw,22rem)]', lg: 'text-[clamp(4rem,13vw,15rem)]', md: 'text-[clamp(3rem,8.5vw,10rem)]', sm: 'text-[clamp(2.5rem,6vw,7rem)]' } as const;
const TEXT_SIZE = { xl: 'text-[clamp(1.5rem,3.4vw,4rem)]', lg: 'text-[clamp(1.25rem,2.6vw,3rem)]', md: 'text-[clamp(1.1rem,1.9vw,2.25rem)]', sm: 'text-[clamp(1rem,1.5vw,1.75rem)]' } as const;

function QueueCard({ queue, size, fresh, privacy }: { queue: ScreenQueue; size: keyof typeof NUMBER_SIZE; fresh: boolean; privacy: boolean }) {
  const { t } = useTranslation();
  const next = queue.next.slice(0, NEXT_SHOWN[size]);
  return (
    <section aria-label={queue.name} data-testid="screen-queue" data-queue={queue.key}
      className="flex min-h-0 flex-col overflow-hidden rounded-[1vw] border-2 border-line-strong bg-surface">
      <header className={`flex items-baseline justify-between gap-3 border-b-2 border-line-strong px-[1.5vw] py-[1vh] ${TEXT_SIZE[size]}`}>
        <span className="min-w-0 truncate font-semibold">{queue.name}</span>
        {queue.room && <span className="shrink-0 font-semibold text-accent" data-testid="screen-room">{queue.room}</span>}
      </header>
      <div data-calling-fresh={fresh} data-testid="screen-current"
        className={`m-[1vw] flex flex-1 flex-col items-center justify-center rounded-[0.8vw] px-[1vw] py-[2vh] text-center transition-colors duration-500 ${fresh ? 'bg-accent text-accent-fg' : 'bg-sunken text-fg'}`}>
        {queue.current ? (
          <>
            <span className={`${TEXT_SIZE[size]} ${fresh ? '' : 'text-fg-muted'}`}>{t('calling.screen.nowCalling')}</span>
            <span className={`${NUMBER_SIZE[size]} font-bold leading-none tracking-tight tabular-nums`} data-testid="screen-number">{queue.current.number}</span>
            {!privacy && queue.current.name && <span className={`${TEXT_SIZE[size]} mt-[1vh] font-semibold`} data-testid="screen-name">{queue.current.name}</span>}
            {queue.room && <span className={`${TEXT_SIZE[size]} mt-[1vh]`}>{t('calling.screen.goTo', { room: queue.room })}</span>}
          </>
        ) : (
          <span className={`${TEXT_SIZE[size]} text-fg-muted`}>{t('calling.screen.nobody')}</span>
        )}
      </div>
      <footer className={`flex flex-wrap items-baseline gap-x-[1.2vw] gap-y-1 border-t-2 border-line-strong px-[1.5vw] py-[1.2vh] ${TEXT_SIZE[size]}`}>
        <span className="text-fg-muted">{t('calling.screen.next')}</span>
        {next.length === 0 ? <span className="text-fg-muted">—</span> : next.map((n) => <span key={n} className="font-semibold tabular-nums" data-testid="screen-next">{n}</span>)}
      </footer>
    </section>
  );
}
