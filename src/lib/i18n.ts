import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, LANGUAGES, STORAGE_KEYS, type Language } from '../../contract/constants';
import chs from '../../locales/chs.json';
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

/**
 * Only the default language (also the fallback) is in the first bundle; English and Tibetan are chunks of their own,
 * loaded before the first render when chosen, or when switched to (the /login budget: each is ≈ 10 KB gzipped).
 */
const LOADERS: Record<Exclude<Language, 'chs'>, () => Promise<{ default: typeof chs }>> = {
  en: () => import('../../locales/en.json'),
  tib: () => import('../../locales/tib.json'),
};

async function bundleOf(language: Language): Promise<typeof chs | null> {
  if (language === 'chs') return chs;
  try {
    return (await LOADERS[language]()).default;
  } catch {
    return null; // the chunk cannot be had now: the default language stands in
  }
}

export async function initI18n(language: Language = storedLanguage()): Promise<typeof i18next> {
  const chosen = await bundleOf(language);
  if (!chosen) language = DEFAULT_LANGUAGE;
  await i18next.use(initReactI18next).init({
    resources: { chs: { translation: chs }, ...(chosen && language !== 'chs' ? { [language]: { translation: chosen } } : {}) },
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
  if (!i18next.hasResourceBundle(language, 'translation')) {
    const bundle = await bundleOf(language);
    if (!bundle) return;
    i18next.addResourceBundle(language, 'translation', bundle, true, true);
  }
  await i18next.changeLanguage(language);
  applyToDocument(language);
}

export function currentLanguage(): Language {
  return isLanguage(i18next.language) ? i18next.language : DEFAULT_LANGUAGE;
}
