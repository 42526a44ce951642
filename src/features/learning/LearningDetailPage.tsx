import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'wouter';
import { idValue } from '../../../contract/common';
import type { Learning, LearningProgress } from '../../../contract/learning';
import { useCommands } from '@/lib/commands';
import { errorText } from '@/lib/errorText';
import { isHttpError, isSessionEndingError } from '@/lib/http';
import { loginUrl, statusOf, useSessionSelector } from '@/lib/session';
import { useLoad } from '@/lib/useLoad';
import { Alert } from '@/ui/Alert';
import { Spinner } from '@/ui/Spinner';
import { learningApi } from './api';
import { categoryLabel } from './category';
import { learningDetailCommands, type LearningDetailContext } from './commands';
import { LearningFrame } from './LearningFrame';
import { learningPath, LEARNING_LIST_PATH, noteOpened } from './paths';
import { VideoPlayer, type PlayerEvents } from './Player';
import { formatDuration, resumePosition, SaveSchedule } from './progress';
import { ProgressBar } from './ProgressBar';

/**
 * /learning/:id (areas §2, unguarded): one video in the player. Signed in, it starts where the account stopped and
 * keeps the position: every 10 s of play, on pause, at the end (then marked watched) and when the page goes away
 * (a keepalive request, so a reload or a closed tab still writes it). Signed out it plays, and keeps nothing.
 */
export default function LearningDetailPage() {
  const { t } = useTranslation();
  const params = useParams<{ id: string }>();
  const parsed = idValue.safeParse(params.id ?? '');
  const id = parsed.success ? parsed.data : null;
  const status = useSessionSelector(statusOf);
  const signedIn = status === 'ready';
  // Asked again when the session starts or ends (the progress is the account's); not while it is being restored.
  const key = id === null || status === 'loading' ? null : `learning:detail:${id}:${signedIn}`;
  const detail = useLoad(key, (signal) => learningApi.get(id!, { signal }));

  const notFound = id === null || (isHttpError(detail.error) && (detail.error.status === 404 || detail.error.status === 400));
  return (
    <LearningFrame title={detail.data?.title ?? t('learning.title')}>
      <div className="mb-3 flex items-center gap-2 text-xs">
        <Link href={LEARNING_LIST_PATH} className="link" data-testid="learning-back">← {t('learning.detail.backToList')}</Link>
      </div>
      {notFound ? (
        <div className="flex max-w-md flex-col gap-3" data-testid="learning-not-found">
          <Alert>{t('learning.detail.notFound')}</Alert>
        </div>
      ) : detail.error && !isSessionEndingError(detail.error) ? (
        <div className="flex max-w-md flex-col gap-3">
          <Alert>{errorText(t, detail.error)}</Alert>
          <div><button type="button" className="btn" onClick={detail.reload}>{t('common.retry')}</button></div>
        </div>
      ) : !detail.data || detail.loading ? (
        <div className="flex items-center justify-center py-12"><Spinner label={t('common.loading')} /></div>
      ) : (
        <Watch key={`${detail.data.id}:${signedIn}`} learning={detail.data} signedIn={signedIn} />
      )}
    </LearningFrame>
  );
}

type SaveState = { kind: 'idle' } | { kind: 'saved'; at: string } | { kind: 'failed'; error: unknown };

function Watch({ learning, signedIn }: { learning: Learning; signedIn: boolean }) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const [progress, setProgress] = useState<LearningProgress | null>(learning.progress);
  const [saveState, setSaveState] = useState<SaveState>({ kind: 'idle' });
  const [controls, setControls] = useState<{ togglePlay(): void; focus(): void } | null>(null);
  const startAt = useMemo(() => resumePosition(learning.progress, learning.durationSec), [learning]);
  useEffect(() => noteOpened(learning.id), [learning.id]);
  const state = useRef({ schedule: new SaveSchedule(), last: null as { positionSec: number; completed: boolean } | null, completed: learning.progress?.completed ?? false, video: null as HTMLVideoElement | null });

  /** Writes where the player stands, unless nothing changed since the last write. */
  const save = (video: HTMLVideoElement, leaving = false) => {
    if (!signedIn) return;
    const s = state.current;
    const duration = learning.durationSec > 0 ? learning.durationSec : video.duration;
    if (video.ended) s.completed = true;
    const positionSec = Math.round(Math.min(video.ended ? duration : video.currentTime, duration || video.currentTime) * 100) / 100;
    if (!Number.isFinite(positionSec)) return;
    if (s.last && Math.abs(s.last.positionSec - positionSec) < 0.25 && s.last.completed === s.completed) return;
    const sent = { positionSec, completed: s.completed };
    s.last = sent;
    s.schedule.saved();
    learningApi.saveProgress(learning.id, sent, { keepalive: leaving }).then(
      (answer) => {
        s.completed ||= answer.completed;
        setProgress(answer);
        setSaveState({ kind: 'saved', at: answer.updated ?? '' });
      },
      (error: unknown) => {
        if (s.last === sent) s.last = null;
        if (!isSessionEndingError(error) && !(error instanceof Error && error.name === 'AbortError')) setSaveState({ kind: 'failed', error });
      },
    );
  };

  const events: PlayerEvents = {
    ready: setControls,
    media(type, video) {
      const s = state.current;
      s.video = video;
      switch (type) {
        case 'loadedmetadata':
          if (startAt > 0 && video.currentTime < startAt) video.currentTime = startAt;
          s.schedule.moved(startAt);
          break;
        case 'timeupdate':
          if (!video.paused && s.schedule.tick(video.currentTime)) save(video);
          break;
        case 'play':
        case 'seeked':
          s.schedule.moved(video.currentTime);
          break;
        case 'pause':
          if (!video.ended) save(video);
          break;
        case 'ended':
          save(video);
          break;
      }
    },
    leave: (video) => save(video, true),
  };

  // A reload or a closed tab: the last write goes out with keepalive.
  useEffect(() => {
    const flush = () => {
      const video = state.current.video;
      if (video) save(video, true);
    };
    const hidden = () => document.visibilityState === 'hidden' && flush();
    window.addEventListener('pagehide', flush);
    document.addEventListener('visibilitychange', hidden);
    return () => {
      window.removeEventListener('pagehide', flush);
      document.removeEventListener('visibilitychange', hidden);
    };
  });

  const ctx: LearningDetailContext = {
    ready: controls !== null,
    togglePlay: () => controls?.togglePlay(),
    focusPlayer: () => controls?.focus(),
    back: () => navigate(LEARNING_LIST_PATH),
  };
  useCommands(learningDetailCommands, ctx);

  return (
    <div className="grid gap-5 lg:grid-cols-[minmax(0,1fr)_18rem]">
      <div className="min-w-0">
        <VideoPlayer src={learning.videoUrl} poster={learning.posterUrl} title={learning.title} events={events} />
      </div>
      <aside className="flex flex-col gap-3 text-[13px]" data-testid="learning-detail">
        <h1 className="text-base font-semibold leading-snug" data-testid="learning-title">{learning.title}</h1>
        <div className="flex flex-wrap items-center gap-2 text-xs text-fg-muted">
          {learning.category && <span className="rounded border border-line px-1.5 py-0.5">{categoryLabel(t, learning.category)}</span>}
          <span className="tabular-nums">{t('learning.detail.length', { duration: formatDuration(learning.durationSec) })}</span>
        </div>
        {learning.description && <p className="whitespace-pre-line text-fg-muted">{learning.description}</p>}
        <section className="rounded-md border border-line bg-surface p-3">
          <h2 className="mb-2 text-xs font-semibold text-fg-muted">{t('learning.detail.yourProgress')}</h2>
          {signedIn && progress ? (
            <>
              <ProgressBar progress={progress} durationSec={learning.durationSec} />
              <p className="mt-2 text-xs text-fg-muted" data-testid="learning-save-state" aria-live="polite">
                {saveState.kind === 'failed' ? <span className="text-danger">{t('learning.detail.saveFailed', { reason: errorText(t, saveState.error) })}</span>
                  : saveState.kind === 'saved' ? t('learning.detail.saved')
                    : startAt > 0 ? t('learning.detail.resumed', { at: formatDuration(startAt) }) : t('learning.detail.savesAutomatically')}
              </p>
            </>
          ) : (
            <p className="text-xs text-fg-muted">
              {t('learning.detail.signInForProgress')}{' '}
              <Link href={loginUrl(learningPath(learning.id))} className="link">{t('learning.detail.signIn')}</Link>
            </p>
          )}
        </section>
        <section className="rounded-md border border-line bg-surface p-3">
          <h2 className="mb-2 text-xs font-semibold text-fg-muted">{t('learning.detail.keys')}</h2>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
            {(['playPause', 'seek', 'volume', 'mute', 'fullscreen', 'focus', 'back'] as const).map((k) => (
              <KeyLine key={k} keys={t(`learning.detail.keyHints.${k}.keys`)} text={t(`learning.detail.keyHints.${k}.text`)} />
            ))}
          </dl>
        </section>
      </aside>
    </div>
  );
}

function KeyLine({ keys, text }: { keys: string; text: string }) {
  return (
    <>
      <dt className="font-mono text-fg">{keys}</dt>
      <dd className="text-fg-muted">{text}</dd>
    </>
  );
}
