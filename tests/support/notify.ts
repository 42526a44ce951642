import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { vi } from 'vitest';
import en from '../../locales/en.json';
import type { User } from '../../contract/accounts';
import type { Group } from '../../contract/domain';
import type { PollEnv } from '@/features/notify/poller';
import { createToastStore } from '@/lib/toasts';

/**
 * What the notification tests share: the demo's rad1 and group as the session holds them, English texts, the sounds
 * played, and a poller's environment over fake timers, a memory store and a toast store. Each test file still mocks
 * @/lib/session and @/lib/http itself (vi.mock is per file).
 */

/** rad1 of the demo (server/seed/demo.ts). */
export const RAD1_USER: User = {
  id: 2, username: 'rad1', name: '李明', fullName: '李明', avatar: null, signature: null, mobile: null, techTitle: null, registry: null,
  canCreateGroup: false, domainName: {},
};

/** The demo group with consultations on and no sounds; `flags` sets the rest. */
export const demoGroup = (flags: Partial<Group> = {}): Group => ({
  id: 1, accessLevel: 0, displayName: '示范医疗集团', domainName: null, openTelemed: false, enableRegistry: false, enableStat: false,
  enableConsultation: true, autoNotifyAudio: null, autoConsulNotifyAudio: null, defaultConsultationBucketId: null,
  defaultExpertBucketId: null, isGroupKb: false, featEncryptionViewerOn: false, enableCalling: false, openPrivateCloud: '0',
  allowOverview: false, enableCredit: false, pathologyUrl: null, allowAccountMgmt: false, readsStatistics: false, ...flags,
});

/** An i18next instance in English, for an I18nextProvider (call in beforeAll). */
export async function englishI18n(): Promise<I18n> {
  const i18n = i18next.createInstance();
  await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false } });
  return i18n;
}

/** Records the path of every sound played into `played` (call in beforeEach; vi.restoreAllMocks undoes it). */
export function recordSounds(played: string[]): void {
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function play(this: HTMLMediaElement) {
    played.push(new URL(this.src).pathname);
    return Promise.resolve();
  });
}

/** A key-value store in memory, as localStorage is to the poller. */
export function memoryStorage(): PollEnv['storage'] & { removeItem(k: string): void; data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) };
}

/**
 * A poller's environment over the fake timers: `storage`, a toast store, the sounds played into `sounds`, and the
 * sound and unauthorised rules the test names.
 */
export function pollEnv(o: { storage: PollEnv['storage']; sounds: string[]; soundUrl: string; isUnauthorized: PollEnv['isUnauthorized'] }) {
  const toasts = createToastStore({ setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (h) => clearTimeout(h as number) });
  const env: PollEnv = {
    storage: o.storage,
    timers: { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (h) => clearTimeout(h as number) },
    upsertToast: (input) => toasts.upsert(input),
    hasToast: (key) => toasts.has(key),
    playSound: (url) => void o.sounds.push(url),
    soundUrl: o.soundUrl,
    isUnauthorized: o.isUnauthorized,
  };
  return { toasts, env };
}
