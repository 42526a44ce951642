import { forwardRef, useCallback, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '@/lib/errorText';
import { isSessionEndingError } from '@/lib/http';
import { http } from '@/lib/http';
import type { RtcToken } from '../../../../contract/consultations';
import type { LiveRoom } from './room';

type State = { kind: 'idle' } | { kind: 'asking' } | { kind: 'unconfigured' } | { kind: 'live' } | { kind: 'failed'; error: unknown };

/** One media element of the room, placed by React into a tile. */
function Tile({ element, label }: { element: HTMLMediaElement; label: string }) {
  const holder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const box = holder.current;
    if (!box) return;
    box.appendChild(element);
    return () => element.remove();
  }, [element]);
  return (
    <figure className="relative m-0 aspect-video overflow-hidden rounded bg-black">
      <div ref={holder} className="h-full w-full [&>video]:h-full [&>video]:w-full [&>video]:object-cover" />
      <figcaption className="absolute bottom-1 left-1 rounded bg-black/60 px-1 text-[11px] text-white">{label}</figcaption>
    </figure>
  );
}

/**
 * The consultation's video room (areas §7 GET consultations/rtc/access-token): when the server has LiveKit, join with
 * camera and microphone; when it has not, say so plainly (no pretend video). livekit-client loads only on joining.
 */
export interface VideoHandle {
  join(): void;
}

export const VideoPanel = forwardRef<VideoHandle, { consultationId: number }>(function VideoPanel({ consultationId }, ref) {
  const { t } = useTranslation();
  const [state, setState] = useState<State>({ kind: 'idle' });
  const [tracks, setTracks] = useState<{ sid: string; element: HTMLMediaElement; kind: 'video' | 'audio'; who: string }[]>([]);
  const [local, setLocal] = useState<HTMLVideoElement | null>(null);
  const room = useRef<LiveRoom | null>(null);

  const leave = useCallback(() => {
    void room.current?.leave();
    room.current = null;
    setTracks([]);
    setLocal(null);
    setState({ kind: 'idle' });
  }, []);
  useEffect(() => () => {
    void room.current?.leave();
    room.current = null;
  }, []);

  const join = useCallback(async () => {
    if (room.current) return;
    setState({ kind: 'asking' });
    try {
      const access = await http.get<RtcToken>('consultations/rtc/access-token', { query: { room: `consultation-${consultationId}` } });
      if (!access.configured) {
        setState({ kind: 'unconfigured' });
        return;
      }
      const { joinRoom } = await import('./room');
      room.current = await joinRoom(access.url, access.token, {
        onTrack: (sid, element, kind, who) => setTracks((list) => [...list.filter((x) => x.sid !== sid), { sid, element, kind, who }]),
        onTrackGone: (sid) => setTracks((list) => list.filter((x) => x.sid !== sid)),
        onLocalVideo: setLocal,
        onDisconnected: () => {
          room.current = null;
          setTracks([]);
          setLocal(null);
          setState({ kind: 'idle' });
        },
      });
      setState({ kind: 'live' });
    } catch (error) {
      if (!isSessionEndingError(error)) setState({ kind: 'failed', error });
    }
  }, [consultationId]);

  useImperativeHandle(ref, () => ({ join: () => void join() }), [join]);

  return (
    <div data-testid="consultation-video" className="text-[13px]">
      {state.kind === 'live' ? (
        <div className="flex flex-col gap-2">
          <div className="grid grid-cols-2 gap-1.5">
            {local && <Tile element={local} label={t('consultations.video.you')} />}
            {tracks.filter((x) => x.kind === 'video').map((x) => <Tile key={x.sid} element={x.element} label={x.who} />)}
          </div>
          {tracks.filter((x) => x.kind === 'audio').map((x) => <AudioSink key={x.sid} element={x.element} />)}
          {tracks.length === 0 && <p className="text-fg-muted">{t('consultations.video.waiting')}</p>}
          <button type="button" className="btn self-start" onClick={leave}>{t('consultations.video.leave')}</button>
        </div>
      ) : (
        <div className="flex flex-col gap-2">
          {state.kind === 'unconfigured' && <p role="status" className="rounded-md border border-line bg-sunken px-2 py-1.5" data-testid="video-unconfigured">{t('consultations.video.notConfigured')}</p>}
          {state.kind === 'failed' && <p role="alert" className="text-danger">{errorText(t, state.error)}</p>}
          {state.kind !== 'unconfigured' && (
            <button type="button" className="btn self-start" onClick={() => void join()} disabled={state.kind === 'asking'}>
              {state.kind === 'asking' ? t('consultations.video.joining') : t('consultations.video.join')} <span className="key-hint">V</span>
            </button>
          )}
        </div>
      )}
    </div>
  );
});

function AudioSink({ element }: { element: HTMLMediaElement }) {
  const holder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    holder.current?.appendChild(element);
    return () => element.remove();
  }, [element]);
  return <div ref={holder} className="hidden" />;
}
