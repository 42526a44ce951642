import { spawn } from 'node:child_process';
import { TTS_VOICES } from '../../contract/calling';
import type { Language } from '../../contract/constants';
import { ApiError } from '../http/errors';

/**
 * Spoken calls for a screen whose browser has no voice for the language: espeak-ng, started by the server for each
 * text (no cloud). Chinese is Mandarin (cmn), English en; espeak-ng has no Tibetan voice, so Tibetan answers
 * TtsUnavailable and the screen shows the call without sound.
 */
const BINARY = process.env.ESPEAK_BIN ?? 'espeak-ng';
const TIMEOUT_MS = 10_000;

export function speak(text: string, lang: Language): Promise<Buffer> {
  const voice = TTS_VOICES[lang];
  if (!voice) return Promise.reject(new ApiError('TtsUnavailable', undefined, { reason: 'no-voice', lang }));
  return new Promise((resolve, reject) => {
    // The text goes as an argument after `--`, never through a shell.
    const child = spawn(BINARY, ['--stdout', '-v', voice, '-s', '150', '--', text], { stdio: ['ignore', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(err.code === 'ENOENT' ? new ApiError('TtsUnavailable', undefined, { reason: 'no-engine' }) : err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const audio = Buffer.concat(chunks);
      if (code === 0 && audio.subarray(0, 4).toString('latin1') === 'RIFF') resolve(audio);
      else reject(new ApiError('TtsUnavailable', undefined, { reason: 'engine-failed' }));
    });
  });
}
