import type { Language } from '../../../contract/constants';

/**
 * The words of a call, spoken on the waiting-room screen (issue 11): the number, the room to go to and — unless the
 * organisation chose privacy-safe calls — the patient's masked name. Pure: the templates come from the locale file
 * of the organisation's language (`calling.speech.*`), so tests read the real sentences.
 */
export interface SpokenCall {
  number: string;
  room: string | null;
  /** Already masked by the server (张*明); null when privacy is on or the name is unknown. */
  name: string | null;
}

export interface SpeechTemplates {
  /** With {{number}}, {{name}} and {{room}}. */
  withName: string;
  /** With {{number}} and {{room}}: privacy-safe calls. */
  noName: string;
  /** With {{number}}: a queue without a room. */
  noRoom: string;
  /** With {{number}} and {{name}}: no room, a name. */
  noRoomWithName: string;
}

/** The BCP 47 language a voice must speak for each of our languages. */
export const VOICE_LANG: Record<Language, string> = { chs: 'zh-CN', en: 'en-US', tib: 'bo' };

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, key: string) => values[key] ?? '').replace(/\s{2,}/g, ' ').trim();
}

/** The sentence for one call; with `privacy` the name never enters it, whatever the payload carries. */
export function speechText(templates: SpeechTemplates, call: SpokenCall, privacy: boolean): string {
  const name = privacy ? null : call.name?.trim() || null;
  const room = call.room?.trim() || null;
  const values = { number: call.number.trim(), name: name ?? '', room: room ?? '' };
  if (room) return fill(name ? templates.withName : templates.noName, values);
  return fill(name ? templates.noRoomWithName : templates.noRoom, values);
}

/**
 * A name as the screen may show it (张*明): the first and the last character kept, the ones between starred; two
 * characters keep the first (张*); Latin names keep each word's first letter (J*** S****). The server masks; this
 * is the same rule for anything the client must mask itself.
 */
export function maskName(name: string): string {
  const text = name.trim();
  if (!text) return '';
  const words = text.split(/\s+/);
  if (words.length > 1) return words.map((w) => maskWord(w, true)).join(' ');
  return maskWord(text, false);
}

function maskWord(word: string, latinStyle: boolean): string {
  const chars = [...word];
  if (chars.length <= 1) return chars.join('');
  if (latinStyle || /^[\p{Script=Latin}'-]+$/u.test(word)) return chars[0] + '*'.repeat(chars.length - 1);
  if (chars.length === 2) return `${chars[0]}*`;
  return `${chars[0]}${'*'.repeat(chars.length - 2)}${chars.at(-1)}`;
}

/** The minimal voice shape (SpeechSynthesisVoice) the choice reads. */
export interface VoiceLike {
  lang: string;
  name: string;
  default?: boolean;
  localService?: boolean;
}

/**
 * The browser voice for a language: an exact tag first (zh-CN), then the same primary language (zh-TW, zh), local
 * voices before network ones; null when the browser has none (then the server's text-to-speech speaks).
 */
export function pickVoice<V extends VoiceLike>(voices: readonly V[], language: Language): V | null {
  const want = VOICE_LANG[language].toLowerCase();
  const primary = want.split('-')[0]!;
  const norm = (lang: string) => lang.replace(/_/g, '-').toLowerCase();
  const rank = (v: V) => (v.localService ? 0 : 1) + (v.default ? 0 : 0.5);
  const exact = voices.filter((v) => norm(v.lang) === want).sort((a, b) => rank(a) - rank(b));
  if (exact[0]) return exact[0];
  const same = voices.filter((v) => norm(v.lang).split('-')[0] === primary).sort((a, b) => rank(a) - rank(b));
  return same[0] ?? null;
}
