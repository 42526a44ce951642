import type { Language } from '../../../../contract/constants';
import { pickVoice } from '../speech';

/** How one announcement went: the browser spoke it, the server's audio played, the browser refused sound until a click, or it failed. */
export type Outcome = 'spoken' | 'audio' | 'blocked' | 'failed';

const SOUND_KEY = 'calling.soundEnabled';

/** Whether someone already enabled sound on this screen (a click on the overlay); remembered across visits. */
export function soundRemembered(): boolean {
  try {
    return localStorage.getItem(SOUND_KEY) === '1';
  } catch {
    return false;
  }
}

export function rememberSound(): void {
  try {
    localStorage.setItem(SOUND_KEY, '1');
  } catch {
    // Remembered for this visit only.
  }
}

/** The browser's voices; Chromium lists them only after `voiceschanged`, so wait a little for the first list. */
async function voices(synth: SpeechSynthesis): Promise<SpeechSynthesisVoice[]> {
  const now = synth.getVoices();
  if (now.length > 0) return now;
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      synth.removeEventListener?.('voiceschanged', done);
      resolve(synth.getVoices());
    };
    const timer = setTimeout(done, 800);
    synth.addEventListener?.('voiceschanged', done);
  });
}

function speak(synth: SpeechSynthesis, voice: SpeechSynthesisVoice, text: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const utterance = new SpeechSynthesisUtterance(text);
    utterance.lang = voice.lang;
    try {
      utterance.voice = voice;
    } catch {
      // A voice object the browser does not own (a test's stand-in): the language alone chooses.
    }
    utterance.rate = 0.9;
    // Chromium refuses speech before the page had a user gesture with the error 'not-allowed'.
    utterance.onerror = (event) => resolve(event.error === 'not-allowed' ? 'blocked' : 'failed');
    utterance.onstart = () => resolve('spoken');
    // Some engines never fire `start`: the request is out, count it as spoken after a moment.
    setTimeout(() => resolve('spoken'), 1500);
    synth.speak(utterance);
  });
}

let playing: HTMLAudioElement | null = null;

async function playAudio(url: string): Promise<Outcome> {
  playing?.pause();
  const audio = new Audio(url);
  playing = audio;
  try {
    await audio.play();
    return 'audio';
  } catch (error) {
    return error instanceof DOMException && error.name === 'NotAllowedError' ? 'blocked' : 'failed';
  }
}

/**
 * Says `text` aloud in `language`: the browser's speech synthesis when it has a voice for that language, else the
 * server's text-to-speech audio at `ttsUrl` (a WAV made by the server's own engine).
 */
export async function announce(text: string, language: Language, ttsUrl: () => string): Promise<Outcome> {
  const synth = typeof window !== 'undefined' && 'speechSynthesis' in window ? window.speechSynthesis : null;
  if (synth) {
    const voice = pickVoice(await voices(synth), language);
    if (voice) return speak(synth, voice, text);
  }
  return playAudio(ttsUrl());
}

/** Stops what is being said (leaving the screen). */
export function silence(): void {
  playing?.pause();
  playing = null;
  if (typeof window !== 'undefined' && 'speechSynthesis' in window) window.speechSynthesis.cancel();
}

