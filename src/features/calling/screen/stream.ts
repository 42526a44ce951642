import { useEffect, useState } from 'react';
import { API_PREFIX, type Language } from '../../../../contract/constants';
import type { ScreenBoard } from './model';

export type StreamStatus = 'connecting' | 'live' | 'reconnecting' | 'refused';

/*
 * The stream's `state` event carries the whole screen (contract/calling.ts ScreenState); it is turned into
 * ScreenBoard here only.
 */
interface WireScreenQueue {
  id: number;
  name: string;
  room: string | null;
  current: { queueNo: string; patientName: string | null; calledTime: string; callCount: number } | null;
  next: string[];
}

interface WireScreenState {
  bucketName: string;
  language: Language;
  privacy: boolean;
  queues: WireScreenQueue[];
}

export function screenBoardOf(wire: WireScreenState): ScreenBoard {
  return {
    title: wire.bucketName,
    language: wire.language,
    privacy: wire.privacy,
    queues: wire.queues.map((q) => ({
      key: String(q.id),
      name: q.name,
      room: q.room,
      next: q.next,
      current: q.current
        ? { number: q.current.queueNo, name: wire.privacy ? null : q.current.patientName, stamp: `${q.current.queueNo}@${q.current.calledTime}#${q.current.callCount}` }
        : null,
    })),
  };
}

const api = (path: string) => `${API_PREFIX}${path}`;

export function streamUrl(bucketId: number, token: string): string {
  return api(`calling/${bucketId}/screen/stream?token=${encodeURIComponent(token)}`);
}

/** The server's spoken audio (WAV) of one call, for a browser without a voice for the language. */
export function ttsUrl(bucketId: number, token: string, text: string, language: Language): string {
  const query = new URLSearchParams({ token, text, lang: language });
  return api(`calling/${bucketId}/tts?${query.toString()}`);
}

/**
 * The organisation's screen stream (Server-Sent Events). The server sends the whole state on connect and after each
 * change; EventSource reconnects by itself after a drop (the status says "reconnecting" meanwhile). A refused token
 * (the stream answers 401/403 and EventSource gives up: readyState CLOSED) is final: no login prompt, a message.
 */
export function useScreenStream(bucketId: number | null, token: string): { board: ScreenBoard | null; status: StreamStatus } {
  const [board, setBoard] = useState<ScreenBoard | null>(null);
  const [status, setStatus] = useState<StreamStatus>('connecting');
  const usable = bucketId !== null && token !== '';
  useEffect(() => {
    if (bucketId === null || !token) return;
    const url = streamUrl(bucketId, token);
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const probe = new AbortController();
    const onState = (event: MessageEvent<string>) => {
      try {
        setBoard(screenBoardOf(JSON.parse(event.data) as WireScreenState));
        setStatus('live');
      } catch {
        // A message the screen does not understand changes nothing.
      }
    };
    const open = () => {
      source = new EventSource(url);
      source.addEventListener('state', onState);
      source.onopen = () => setStatus('live');
      source.onerror = () => {
        if (source?.readyState !== EventSource.CLOSED) {
          setStatus('reconnecting'); // EventSource tries again by itself
          return;
        }
        // EventSource gave up (an HTTP error, not a drop): ask once why, and try again later ourselves.
        source.close();
        void fetch(url, { signal: probe.signal }).then(
          (res) => {
            void res.body?.cancel();
            const refused = res.status === 401 || res.status === 403 || res.status === 404;
            setStatus(refused ? 'refused' : 'reconnecting');
            retry = setTimeout(open, refused ? 60_000 : 5_000);
          },
          () => {
            if (probe.signal.aborted) return;
            setStatus('reconnecting');
            retry = setTimeout(open, 5_000);
          },
        );
      };
    };
    open();
    return () => {
      probe.abort();
      clearTimeout(retry);
      source?.close();
    };
  }, [bucketId, token]);
  return { board, status: usable ? status : 'refused' };
}
