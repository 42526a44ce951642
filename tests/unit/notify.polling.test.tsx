// @vitest-environment jsdom
import { act, cleanup, render } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '../../contract/accounts';
import { CONSULTATION_POLL_MS, STORAGE_KEYS } from '../../contract/constants';
import type { ConsultationListItem } from '../../contract/consultations';
import type { Group } from '../../contract/domain';
import type { SessionStatus } from '@/lib/session';
import { NotifyPolling } from '@/features/notify/NotifyPolling';
import { notifySounds } from '@/features/notify/sounds';
import { HttpError } from '@/lib/http';
import { toasts } from '@/lib/toasts';
import { demoGroup, englishI18n, RAD1_USER, recordSounds } from '../support/notify';

/**
 * <NotifyPolling /> as the shell mounts it: the consultation poller runs only while the session is ready and a group
 * has consultations on with autoConsulNotifyAudio set, beside the exam poller and independently of it.
 */

const state = vi.hoisted(() => ({
  // rad1's organisation and role (server/seed/demo.ts): writes reports and answers consultations, so both feeds are theirs.
  session: { status: 'ready' as string, user: null as unknown, groups: [] as unknown[], permissions: { '1': { type: 1, actions: ['exam_get', 'report_upsert', 'consultation_submitSuggestion'] } } as unknown },
  posts: [] as { path: string; body: unknown }[],
  answer: (_path: string): Promise<unknown> => Promise.resolve({ items: [], total: 0 }),
}));
vi.mock('@/lib/session', () => ({ useSession: () => state.session }));
vi.mock('@/lib/http', async (original) => ({
  ...(await original<object>()),
  http: {
    post: (path: string, body: unknown) => {
      state.posts.push({ path, body });
      return state.answer(path);
    },
  },
}));

const USER: User = RAD1_USER;
const group = (flags: Partial<Group>): Group => demoGroup(flags);
const CONSULT_SOUND = '/sounds/consult.wav';
const EXAM_SOUND = '/sounds/exam.wav';

const item: ConsultationListItem = {
  id: 12, patientName: '赵磊', created: new Date(2026, 10, 21, 14, 30).toISOString(), reason: '肝右叶结节，排除肝细胞癌', status: 0,
  appliedBucketName: '市第一人民医院放射科', joinedBuckets: [{ id: 2, name: '远程影像专家中心' }], scheduledTime: null,
};

let i18n: I18n;
let played: string[];

beforeAll(async () => {
  i18n = await englishI18n();
});
beforeEach(() => {
  vi.useFakeTimers();
  // In this order: clearing the toasts closes them, which records their ids.
  toasts.clear();
  localStorage.clear();
  state.posts.length = 0;
  state.answer = () => Promise.resolve({ items: [], total: 0 });
  played = [];
  recordSounds(played);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

function session(status: SessionStatus, groups: Group[], user: User | null = USER) {
  state.session = { ...state.session, status, user, groups };
}

const mount = () => render(<I18nextProvider i18n={i18n}><NotifyPolling /></I18nextProvider>);
const wait = (ms: number) => act(async () => { await vi.advanceTimersByTimeAsync(ms); });
const consultationPolls = () => state.posts.filter((p) => p.path === 'consultations/query-page');
const examPolls = () => state.posts.filter((p) => p.path === 'exams/newly');

describe('notification polling in the shell', () => {
  it('polls pending consultations at once and every 60 s while signed in with the group sound set, and rings it', async () => {
    session('ready', [group({ autoConsulNotifyAudio: CONSULT_SOUND })]);
    state.answer = (path) => Promise.resolve(path === 'consultations/query-page' ? { items: [item], total: 4 } : { items: [], total: 0 });
    mount();
    await wait(0);
    expect(consultationPolls()).toEqual([{
      path: 'consultations/query-page',
      body: { filters: [{ field: 'status', operator: 'equal', values: [0] }], skip: 0, limit: 5, sorts: [{ field: 'id', direction: 'desc' }] },
    }]);
    expect(toasts.list().map((t) => [t.title, t.message])).toEqual([[
      'New consultation request', '赵磊 · 11-21 14:30 · 肝右叶结节，排除肝细胞癌 · from 市第一人民医院放射科 · with 远程影像专家中心 · Pending consultations: 4',
    ]]);
    expect(played).toEqual([CONSULT_SOUND]);
    await wait(CONSULTATION_POLL_MS - 1);
    expect(consultationPolls()).toHaveLength(1);
    await wait(1);
    expect(consultationPolls()).toHaveLength(2);
    expect(examPolls()).toEqual([]);
  });

  it('records the consultation id, not the exam id, when its toast is closed', async () => {
    session('ready', [group({ autoConsulNotifyAudio: CONSULT_SOUND })]);
    state.answer = () => Promise.resolve({ items: [item], total: 1 });
    mount();
    await wait(0);
    act(() => toasts.dismiss(toasts.list()[0]!.id));
    expect(localStorage.getItem(STORAGE_KEYS.lastConsultationId)).toBe('12');
    expect(localStorage.getItem(STORAGE_KEYS.lastExamId)).toBeNull();
  });

  it('does not poll consultations when no group has autoConsulNotifyAudio, while the exam feed still runs', async () => {
    session('ready', [group({ autoNotifyAudio: EXAM_SOUND, autoConsulNotifyAudio: null })]);
    mount();
    await wait(CONSULTATION_POLL_MS * 3);
    expect(consultationPolls()).toEqual([]);
    expect(examPolls().length).toBeGreaterThan(0);
  });

  it('does not poll consultations for a group that has them switched off, sound or not', async () => {
    session('ready', [group({ enableConsultation: false, autoConsulNotifyAudio: CONSULT_SOUND })]);
    mount();
    await wait(CONSULTATION_POLL_MS * 3);
    expect(state.posts).toEqual([]);
  });

  it.each<[SessionStatus, User | null]>([['signedOut', null], ['loading', USER], ['expired', USER], ['reLogin', USER]])(
    'does not poll while the session is %s',
    async (status, user) => {
      session(status, [group({ autoConsulNotifyAudio: CONSULT_SOUND, autoNotifyAudio: EXAM_SOUND })], user);
      mount();
      await wait(CONSULTATION_POLL_MS * 2);
      expect(state.posts).toEqual([]);
    },
  );

  it('stops when the session leaves ready and starts again when it is back', async () => {
    const groups = [group({ autoConsulNotifyAudio: CONSULT_SOUND })];
    session('ready', groups);
    const view = mount();
    await wait(0);
    expect(consultationPolls()).toHaveLength(1);
    session('expired', groups);
    view.rerender(<I18nextProvider i18n={i18n}><NotifyPolling /></I18nextProvider>);
    await wait(CONSULTATION_POLL_MS * 3);
    expect(consultationPolls()).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
    session('ready', groups);
    view.rerender(<I18nextProvider i18n={i18n}><NotifyPolling /></I18nextProvider>);
    await wait(0);
    expect(consultationPolls()).toHaveLength(2);
  });

  it('lets a 401 stop the consultation poller quietly while the exam poller goes on', async () => {
    session('ready', [group({ autoConsulNotifyAudio: CONSULT_SOUND, autoNotifyAudio: EXAM_SOUND })]);
    state.answer = (path) => path === 'consultations/query-page'
      ? Promise.reject(new HttpError('TokenExpiredError', 401, 'Login expired'))
      : Promise.resolve({ items: [], total: 0 });
    mount();
    await wait(CONSULTATION_POLL_MS * 3);
    expect(consultationPolls()).toHaveLength(1);
    expect(examPolls().length).toBeGreaterThan(1);
    expect(toasts.list()).toEqual([]);
  });
});

describe('which feeds a session runs', () => {
  it('takes each sound from the first group that sets it; consultations only where they are switched on', () => {
    expect(notifySounds([])).toEqual({ exams: null, consultations: null });
    expect(notifySounds([group({ enableConsultation: false, autoConsulNotifyAudio: CONSULT_SOUND }), group({ id: 2, autoConsulNotifyAudio: '/b.wav', autoNotifyAudio: EXAM_SOUND })]))
      .toEqual({ exams: EXAM_SOUND, consultations: '/b.wav' });
  });
});
