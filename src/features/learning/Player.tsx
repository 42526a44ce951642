import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import * as plyrModule from 'plyr';
import 'plyr/dist/plyr.css';
// Served from the app itself (built into dist/assets), never from plyr's CDN; so is the blank video below.
// plyr's package exports do not list its sprite, so it is reached by its path; Vite copies it into the build.
import iconUrl from '../../../node_modules/plyr/dist/plyr.svg?url';

// plyr's types declare its class both as `export =` and as `export default`; TypeScript 7 (the type check) reads that as
// a namespace without a default export or a constructor. The browser gets plyr.mjs, whose default export is the class:
// it is typed here by the part of it this player uses, with the options from plyr's own namespace.
interface PlyrPlayer {
  elements: { container?: HTMLElement | null };
  on(event: 'ready', listener: () => void): void;
  togglePlay(): unknown;
  destroy(): void;
}
const Plyr = (plyrModule as unknown as { default: new (target: HTMLElement, options: plyrModule.Options) => PlyrPlayer }).default;

/** What the page is told of the player: it is ready (with its controls), and its media events. */
export interface PlayerEvents {
  ready(controls: { togglePlay(): void; focus(): void }): void;
  /** The media's own events: `video` is the element, for its currentTime, paused and ended. */
  media(type: 'loadedmetadata' | 'timeupdate' | 'play' | 'pause' | 'seeked' | 'ended', video: HTMLVideoElement): void;
  /** The player is going away (leaving the page): the last moment its position can be read. */
  leave(video: HTMLVideoElement): void;
}

const MEDIA_EVENTS = ['loadedmetadata', 'timeupdate', 'play', 'pause', 'seeked', 'ended'] as const;

/**
 * An HTML5 video in plyr's player. The <video> is made here, not rendered by React, because plyr wraps it in its own
 * markup; it is torn down with the player. Keys work while the player has the focus (it takes it when ready):
 * space/k, ←/→ 5 s, ↑/↓ volume, m, f; plyr stops those keys there, so the app's shortcuts never see them.
 */
export function VideoPlayer({ src, poster, title, events }: { src: string; poster: string | null; title: string; events: PlayerEvents }) {
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const eventsRef = useRef(events);
  useEffect(() => {
    eventsRef.current = events;
  });

  useEffect(() => {
    const root = host.current!;
    const video = document.createElement('video');
    video.preload = 'metadata';
    video.playsInline = true;
    video.setAttribute('aria-label', title);
    if (poster) video.poster = poster;
    const source = document.createElement('source');
    source.src = src;
    source.type = 'video/webm';
    video.append(source);
    root.append(video);

    const listeners = MEDIA_EVENTS.map((type) => {
      const listener = () => eventsRef.current.media(type, video);
      video.addEventListener(type, listener);
      return () => video.removeEventListener(type, listener);
    });

    const player = new Plyr(video, {
      iconUrl,
      blankVideo: '/learning/blank.webm',
      controls: ['play-large', 'rewind', 'play', 'fast-forward', 'progress', 'current-time', 'duration', 'mute', 'volume', 'settings', 'fullscreen'],
      settings: ['speed'],
      keyboard: { focused: true, global: false },
      seekTime: 5,
      invertTime: false,
      tooltips: { controls: true, seek: true },
      storage: { enabled: false },
      i18n: {
        play: t('learning.player.play'), pause: t('learning.player.pause'), restart: t('learning.player.restart'),
        rewind: t('learning.player.rewind'), fastForward: t('learning.player.forward'), seek: t('learning.player.seek'),
        seekLabel: t('learning.player.seekLabel'), played: t('learning.player.played'), buffered: t('learning.player.buffered'),
        currentTime: t('learning.player.currentTime'), duration: t('learning.player.duration'), volume: t('learning.player.volume'),
        mute: t('learning.player.mute'), unmute: t('learning.player.unmute'), enterFullscreen: t('learning.player.enterFullscreen'),
        exitFullscreen: t('learning.player.exitFullscreen'), settings: t('learning.player.settings'), menuBack: t('learning.player.back'),
        speed: t('learning.player.speed'), normal: t('learning.player.normal'),
      },
    });
    let live = true;
    // plyr listens for its keys on its container; the container itself takes the focus (Tab reaches it, and so can
    // the page), so space and k work before any control has been clicked.
    const container = player.elements.container;
    container?.setAttribute('tabindex', '0');
    const focus = () => container?.focus({ preventScroll: true });
    player.on('ready', () => {
      if (!live) return;
      eventsRef.current.ready({ togglePlay: () => void player.togglePlay(), focus });
      focus();
    });
    return () => {
      live = false;
      eventsRef.current.leave(video);
      listeners.forEach((off) => off());
      player.destroy();
      root.replaceChildren();
    };
    // The player is made once per video; its texts follow the language it was made in.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [src]);

  return (
    <div
      ref={host}
      className="overflow-hidden rounded-md border border-line bg-black [--plyr-color-main:var(--accent)] [&_.plyr:focus-visible]:outline-2 [&_.plyr:focus-visible]:outline-offset-[-2px] [&_.plyr:focus-visible]:outline-[var(--focus)]"
      data-testid="learning-player"
    />
  );
}
