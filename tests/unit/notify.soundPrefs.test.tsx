// @vitest-environment jsdom
import { act, cleanup, render } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '../../contract/accounts';
import type { ConsultationListItem } from '../../contract/consultations';
import type { Group } from '../../contract/domain';
import { NotifyPolling } from '@/features/notify/NotifyPolling';
import { createPoller, type PollEnv, type PollFeed } from '@/features/notify/poller';
import { soundEnabled } from '@/features/notify/sounds';
import { toasts } from '@/lib/toasts';
import { demoGroup, englishI18n, RAD1_USER, recordSounds } from '../support/notify';

/**
 * settings/notification: the account's sound switches (accounts.notification_prefs). Off, a feed still polls and
 * toasts, but plays nothing; the switch is read when news arrives, so changing it needs no restart.
 */

const state = vi.hoisted(() => ({
  // rad1's organisation and role (server/seed/demo.ts): writes reports and answers consultations, so both feeds are theirs.
  session: { status: 'ready' as string, user: null as unknown, groups: [] as unknown[], permissions: { '1': { type: 1, actions: ['exam_get', 'report_upsert', 'consultation_submitSuggestion'] } } as unknown },
  answer: (_path: string): Promise<unknown> => Promise.resolve({ items: [], total: 0 }),
}));
vi.mock('@/lib/session', () => ({ useSession: () => state.session }));
vi.mock('@/lib/http', async (original) => ({
  ...(await original<object>()),
  http: { post: (path: string) => state.answer(path) },
}));

const USER: User = { ...RAD1_USER, notificationPrefs: { examSound: true, consultationSound: true } };
const GROUP: Group = demoGroup({ autoConsulNotifyAudio: '/sounds/consult.wav' });
const item = (id: number): ConsultationListItem => ({
  id, patientName: '赵磊', created: new Date(2026, 10, 21, 14, 30).toISOString(), reason: '肝右叶结节', status: 0,
  appliedBucketName: '市第一人民医院放射科', joinedBuckets: [], scheduledTime: null,
});

let i18n: I18n;
let played: string[];
beforeAll(async () => {
  i18n = await englishI18n();
});
beforeEach(() => {
  vi.useFakeTimers();
  toasts.clear();
  localStorage.clear();
  played = [];
  recordSounds(played);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.useRealTimers();
});
const wait = (ms: number) => act(async () => { await vi.advanceTimersByTimeAsync(ms); });
const tree = () => <I18nextProvider i18n={i18n}><NotifyPolling /></I18nextProvider>;

describe('soundEnabled', () => {
  it('is on unless the account switched that kind off', () => {
    expect(soundEnabled(null, 'exams')).toBe(true);
    expect(soundEnabled({ notificationPrefs: undefined }, 'consultations')).toBe(true);
    expect(soundEnabled({ notificationPrefs: { examSound: false, consultationSound: true } }, 'exams')).toBe(false);
    expect(soundEnabled({ notificationPrefs: { examSound: false, consultationSound: true } }, 'consultations')).toBe(true);
    expect(soundEnabled({ notificationPrefs: { examSound: true, consultationSound: false } }, 'consultations')).toBe(false);
  });
});

describe('the poller and the switch', () => {
  it('toasts without a sound while the switch is off, and rings again once it is on', async () => {
    let on = false;
    let page = { items: [{ id: 5 }], total: 1 };
    const feed: PollFeed<{ id: number }> = {
      name: 'exams', intervalMs: 1000, storageKey: 'k', fetch: () => Promise.resolve(page), describe: (first) => ({ title: 'New', message: String(first.id) }),
    };
    const shown: string[] = [];
    const sounds: string[] = [];
    const env: PollEnv = {
      storage: { getItem: () => null, setItem: () => undefined },
      timers: { setTimeout: () => 0, clearTimeout: () => undefined },
      upsertToast: (input) => { shown.push(input.message); return { outcome: 'shown' }; },
      hasToast: () => true,
      playSound: (url) => { sounds.push(url); },
      soundUrl: '/exam.wav',
      soundOn: () => on,
      isUnauthorized: () => false,
    };
    const poller = createPoller(feed, env);
    poller.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(shown).toEqual(['5']);
    expect(sounds).toEqual([]);
    on = true;
    page = { items: [{ id: 6 }], total: 2 };
    await poller.poll();
    expect(shown.at(-1)).toBe('6');
    expect(sounds).toEqual(['/exam.wav']);
    poller.stop();
  });
});

describe('<NotifyPolling /> with the account switches', () => {
  it('shows the consultation toast but plays nothing when consultationSound is off; a later switch-on rings the next one', async () => {
    state.session = { ...state.session, status: 'ready', user: { ...USER, notificationPrefs: { examSound: true, consultationSound: false } }, groups: [GROUP] };
    state.answer = () => Promise.resolve({ items: [item(12)], total: 1 });
    const view = render(tree());
    await wait(0);
    expect(toasts.list().map((t) => t.title)).toEqual(['New consultation request']);
    expect(played).toEqual([]);

    state.session = { ...state.session, user: USER };
    view.rerender(tree());
    state.answer = () => Promise.resolve({ items: [item(13), item(12)], total: 2 });
    await wait(60_000);
    expect(played).toEqual(['/sounds/consult.wav']);
  });
});
