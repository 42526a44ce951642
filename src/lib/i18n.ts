import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, LANGUAGES, STORAGE_KEYS, type Language } from '../../contract/constants';
import type chs from '../../locales/chs.json';
import chsCore from 'virtual:locales/chs/core';
import type { KeyValueStorage } from './tokenStore';

/**
 * One i18next namespace ("translation") whose top-level keys are the features (common, nav, auth,
 * errors, ...): keys read `t('errors.InvalidCredentials')`, matching `errors.<code>` in the catalogue.
 */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof chs };
  }
}

/** `<html lang>` per language (core §1: the page language follows the choice). */
export const HTML_LANG: Record<Language, string> = { chs: 'zh-CN', en: 'en', tib: 'bo' };

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

function storage(): KeyValueStorage | null {
  return typeof localStorage === 'undefined' ? null : localStorage;
}

/** The remembered choice, or the default (chs) when none or an unknown one is kept. */
export function storedLanguage(store: KeyValueStorage | null = storage()): Language {
  try {
    const value = store?.getItem(STORAGE_KEYS.language);
    return isLanguage(value) ? value : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

function applyToDocument(language: Language) {
  if (typeof document !== 'undefined') document.documentElement.lang = HTML_LANG[language];
  // Tibetan brings its web font along (a chunk of its own); the other languages never ask for it.
  if (language === 'tib') void import('./tibetanFont').then((m) => m.loadTibetanFont());
}

export const i18n = i18next;

type Part = Record<string, unknown>;

/**
 * Only the default language's first-paint namespaces are in the first bundle (src/lib/localeParts.ts); the rest of
 * it, and English and Tibetan, are chunks of their own. A language's core part loads before the first render when
 * chosen, or when switched to; the feature texts (`rest`) load once a screen needs them (`loadAllTexts`: the guard of
 * every signed-in screen and every lazy screen but the sign-in page wait for it), so /login never loads them.
 */
const LOADERS: Record<Language, Record<'core' | 'rest', () => Promise<{ default: Part }>>> = {
  chs: { core: async () => ({ default: chsCore }), rest: () => import('virtual:locales/chs/rest') },
  en: { core: () => import('virtual:locales/en/core'), rest: () => import('virtual:locales/en/rest') },
  tib: { core: () => import('virtual:locales/tib/core'), rest: () => import('virtual:locales/tib/rest') },
};

async function partOf(language: Language, part: 'core' | 'rest'): Promise<Part | null> {
  try {
    return (await LOADERS[language][part]()).default;
  } catch {
    return null; // the chunk cannot be had now: the default language stands in
  }
}

/** Set once a screen has asked for the feature texts: a language switched to later brings its own at once. */
let allTexts: Promise<boolean> | null = null;
/** The parts in i18next now, as `chs/rest`. */
const added = new Set<string>(['chs/core']);

async function addPart(language: Language, part: 'core' | 'rest'): Promise<boolean> {
  if (added.has(`${language}/${part}`)) return true;
  const texts = await partOf(language, part);
  if (!texts) return false;
  i18next.addResourceBundle(language, 'translation', texts, true, true);
  added.add(`${language}/${part}`);
  return true;
}

/** The feature texts of the default language and of the current one; resolves when they are in (false if a chunk failed). */
export function loadAllTexts(): Promise<boolean> {
  allTexts ??= (async () => {
    const language = currentLanguage();
    const done = await Promise.all([addPart(DEFAULT_LANGUAGE, 'rest'), ...(language === DEFAULT_LANGUAGE ? [] : [addPart(language, 'rest')])]);
    if (!done.every(Boolean)) allTexts = null; // a later screen asks again
    return done.every(Boolean);
  })();
  return allTexts;
}

/** Whether the feature texts are in (the guard renders at once then). */
export function allTextsLoaded(): boolean {
  return added.has(`${DEFAULT_LANGUAGE}/rest`) && added.has(`${currentLanguage()}/rest`);
}

export async function initI18n(language: Language = storedLanguage()): Promise<typeof i18next> {
  const chosen = language === DEFAULT_LANGUAGE ? chsCore : await partOf(language, 'core');
  if (!chosen) language = DEFAULT_LANGUAGE;
  await i18next.use(initReactI18next).init({
    resources: { chs: { translation: chsCore }, ...(chosen && language !== 'chs' ? { [language]: { translation: chosen } } : {}) },
    lng: language,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    // The codes are ours (chs, tib), not BCP 47: never let i18next cut them at a dash.
    load: 'currentOnly',
    interpolation: { escapeValue: false }, // React escapes
    returnNull: false,
  });
  // English sentences that open with a field name ("{{field, capitalize}} is required").
  i18next.services.formatter?.add('capitalize', (value: unknown) => {
    const text = String(value ?? '');
    return text.charAt(0).toLocaleUpperCase() + text.slice(1);
  });
  if (language !== DEFAULT_LANGUAGE) added.add(`${language}/core`);
  applyToDocument(language);
  return i18next;
}

/** Switches the language, remembers it under the `language` key and updates `<html lang>`. */
export async function setLanguage(language: Language): Promise<void> {
  try {
    storage()?.setItem(STORAGE_KEYS.language, language);
  } catch {
    // Storage refused: the choice still holds for this visit.
  }
  if (!(await addPart(language, 'core'))) return;
  // Once feature texts are in use, the new language brings its own before it shows.
  if (allTexts) await addPart(language, 'rest');
  await i18next.changeLanguage(language);
  applyToDocument(language);
}

export function currentLanguage(): Language {
  return isLanguage(i18next.language) ? i18next.language : DEFAULT_LANGUAGE;
}
