import i18next, { type TFunction } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import chs from '../../locales/chs.json';
import en from '../../locales/en.json';
import tib from '../../locales/tib.json';
import { CONSULTATION_POLL_MS, EXAM_POLL_MS, STORAGE_KEYS } from '../../contract/constants';
import type { ConsultationListItem } from '../../contract/consultations';
import { consultationFeed } from '@/features/notify/feeds';
import { createPoller, lastSeenId, type PollEnv } from '@/features/notify/poller';
import { createHttp, isHttpError } from '@/lib/http';
import type { createToastStore } from '@/lib/toasts';
import { memoryStorage, pollEnv } from '../support/notify';

/**
 * The pending-consultation feed (core §4 "Notification polling", §7 "Polling") through the real poller and the real
 * HTTP client over a scripted server: what it asks, how often, the toast, the id it records, and what it ignores.
 */

interface Call {
  url: string;
  method: string;
  body: unknown;
  authorization: string | null;
}

/** A server whose answers the test sets round by round (the last one repeats); it records every request. */
function scriptedServer() {
  const answers: (Response | Error)[] = [];
  const calls: Call[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    calls.push({ url: String(input), method: init?.method ?? 'GET', body: init?.body ? JSON.parse(String(init.body)) : undefined, authorization: headers.get('Authorization') });
    const next = answers.length > 1 ? answers.shift()! : answers[0];
    if (next === undefined) return json(200, { items: [], total: 0 });
    if (next instanceof Error) throw next;
    return next.clone();
  }) as typeof globalThis.fetch;
  return { fetch, calls, answer: (a: Response | Error) => answers.push(a) };
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** Built from local time parts, so the toast's "MM-DD HH:mm" is the same in every time zone. */
const CREATED = new Date(2026, 10, 20, 9, 5).toISOString();

function consultation(id: number, over: Partial<ConsultationListItem> = {}): ConsultationListItem {
  return {
    id, patientName: '王芳', created: CREATED, reason: '右肺上叶磨玻璃结节，性质待定', status: 0, appliedBucketName: '市第一人民医院放射科',
    joinedBuckets: [{ id: 2, name: '远程影像专家中心' }, { id: 3, name: '省人民医院影像科' }], scheduledTime: null, ...over,
  };
}
const pending = (total: number, ...ids: number[]) => json(200, { items: ids.map((id) => consultation(id)), total });

const translators = {} as Record<'chs' | 'en' | 'tib', TFunction>;
beforeAll(async () => {
  for (const [lng, resources] of [['chs', chs], ['en', en], ['tib', tib]] as const) {
    const i18n = i18next.createInstance();
    await i18n.init({ lng, resources: { [lng]: { translation: resources } }, interpolation: { escapeValue: false } });
    translators[lng] = i18n.t;
  }
});

describe('the pending-consultation feed', () => {
  let server: ReturnType<typeof scriptedServer>;
  let storage: ReturnType<typeof memoryStorage>;
  let toasts: ReturnType<typeof createToastStore>;
  let sounds: string[];
  let env: PollEnv;

  function start(overrides: Partial<PollEnv> = {}, t: TFunction = translators.en) {
    const tokens = memoryStorage();
    const http = createHttp({ fetch: server.fetch, storage: tokens });
    http.tokens.write({ accessToken: 'token-1', expires: Math.floor(Date.now() / 1000) + 3600, loginType: 'normal' });
    const poller = createPoller(consultationFeed(http, t), { ...env, ...overrides });
    poller.start();
    return poller;
  }

  beforeEach(() => {
    vi.useFakeTimers({ now: new Date(2026, 10, 22, 8, 0) });
    server = scriptedServer();
    storage = memoryStorage();
    sounds = [];
    // The same unauthorised test NotifyPolling applies.
    ({ toasts, env } = pollEnv({ storage, sounds, soundUrl: '/sounds/consult.wav', isUnauthorized: (error) => isHttpError(error) && error.status === 401 }));
  });
  afterEach(() => vi.useRealTimers());

  it('asks consultations/query-page for the pending ones: status equal 0, limit 5, skip 0, newest id first, with the bearer', async () => {
    start();
    await vi.advanceTimersByTimeAsync(0);
    expect(server.calls).toEqual([{
      url: '/api/v1/consultations/query-page',
      method: 'POST',
      body: { filters: [{ field: 'status', operator: 'equal', values: [0] }], skip: 0, limit: 5, sorts: [{ field: 'id', direction: 'desc' }] },
      authorization: 'Bearer token-1',
    }]);
  });

  it('polls at once and then every 60 seconds, not at the exam cadence', async () => {
    const poller = start();
    await vi.advanceTimersByTimeAsync(0);
    expect(server.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(EXAM_POLL_MS);
    expect(server.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(CONSULTATION_POLL_MS - EXAM_POLL_MS - 1);
    expect(server.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(CONSULTATION_POLL_MS * 3);
    expect(server.calls).toHaveLength(5);
    poller.stop();
  });

  it('shows a toast naming patient, time, reason, applicant, joined organisations and the pending count, and plays the group sound', async () => {
    storage.setItem(STORAGE_KEYS.lastConsultationId, '40');
    server.answer(pending(7, 42, 41, 40));
    start();
    await vi.advanceTimersByTimeAsync(0);
    expect(toasts.list().map((t) => [t.title, t.message])).toEqual([[
      'New consultation request',
      '王芳 · 11-20 09:05 · 右肺上叶磨玻璃结节，性质待定 · from 市第一人民医院放射科 · with 远程影像专家中心, 省人民医院影像科 · Pending consultations: 7',
    ]]);
    expect(sounds).toEqual(['/sounds/consult.wav']);
  });

  it.each(['chs', 'tib'] as const)('writes the toast in %s with the same six pieces', async (lng) => {
    server.answer(pending(7, 42));
    start({}, translators[lng]);
    await vi.advanceTimersByTimeAsync(0);
    const [toast] = toasts.list();
    expect(toast!.title).toBe(lng === 'chs' ? '新会诊申请' : 'གྲོས་བསྡུར་ཞུ་ཡིག་གསར་པ།');
    for (const piece of ['王芳', '11-20 09:05', '右肺上叶磨玻璃结节', '市第一人民医院放射科', '远程影像专家中心', '省人民医院影像科', '7']) {
      expect(toast!.message).toContain(piece);
    }
    expect(toast!.message).not.toMatch(/notify\.|\{\{/);
  });

  it('cuts a long reason to fit the 400-wide toast', async () => {
    const reason = '患者男，67岁，反复咳嗽咳痰三月余，伴痰中带血一周，胸部CT示右肺上叶尖段不规则软组织肿块，边缘毛刺，纵隔淋巴结肿大，请求会诊明确诊断及下一步治疗方案';
    server.answer(json(200, { items: [consultation(9, { reason })], total: 1 }));
    start();
    await vi.advanceTimersByTimeAsync(0);
    const message = toasts.list()[0]!.message;
    expect(message).toContain(`${[...reason].slice(0, 39).join('')}…`);
    expect(message).not.toContain('治疗方案');
  });

  it('stays silent while the first id is not above the last one seen', async () => {
    storage.setItem(STORAGE_KEYS.lastConsultationId, '42');
    server.answer(pending(3, 42, 41));
    start();
    await vi.advanceTimersByTimeAsync(CONSULTATION_POLL_MS * 2);
    expect(server.calls).toHaveLength(3);
    expect(toasts.list()).toEqual([]);
    expect(sounds).toEqual([]);
  });

  it('records the highest consultation id of the round when the toast is closed, under its own key, and rings no more for it', async () => {
    storage.setItem(STORAGE_KEYS.lastExamId, '5');
    server.answer(json(200, { items: [consultation(50), consultation(57), consultation(49)], total: 3 }));
    start();
    await vi.advanceTimersByTimeAsync(0);
    expect(lastSeenId(storage, STORAGE_KEYS.lastConsultationId)).toBe(0);
    toasts.dismiss(toasts.list()[0]!.id);
    expect(lastSeenId(storage, STORAGE_KEYS.lastConsultationId)).toBe(57);
    expect(lastSeenId(storage, STORAGE_KEYS.lastExamId)).toBe(5);
    await vi.advanceTimersByTimeAsync(CONSULTATION_POLL_MS);
    expect(server.calls).toHaveLength(2);
    expect(toasts.list()).toEqual([]);
    expect(sounds).toHaveLength(1);
  });

  it('rings again for a newer pending consultation after the last one was acknowledged', async () => {
    server.answer(pending(1, 60));
    server.answer(pending(2, 61, 60));
    start();
    await vi.advanceTimersByTimeAsync(0);
    toasts.dismiss(toasts.list()[0]!.id);
    await vi.advanceTimersByTimeAsync(CONSULTATION_POLL_MS);
    expect(toasts.list().map((t) => t.message)).toEqual([expect.stringContaining('Pending consultations: 2')]);
    expect(sounds).toHaveLength(2);
  });

  it('stops quietly on a 401 and asks no more', async () => {
    server.answer(json(401, { code: 'TokenExpiredError', message: 'Login expired' }));
    const poller = start();
    await vi.advanceTimersByTimeAsync(CONSULTATION_POLL_MS * 4);
    expect(server.calls).toHaveLength(1);
    expect(poller.running).toBe(false);
    expect(toasts.list()).toEqual([]);
    expect(sounds).toEqual([]);
  });

  it('ignores other failures (server errors, a refusal, no network) and keeps polling', async () => {
    server.answer(json(503, { code: 'UnknownError', message: 'down' }));
    server.answer(json(403, { code: 'Forbidden', message: 'no' }));
    server.answer(new TypeError('Failed to fetch'));
    server.answer(pending(1, 80));
    const poller = start();
    await vi.advanceTimersByTimeAsync(CONSULTATION_POLL_MS * 2);
    expect(server.calls).toHaveLength(3);
    expect(toasts.list()).toEqual([]);
    expect(poller.running).toBe(true);
    await vi.advanceTimersByTimeAsync(CONSULTATION_POLL_MS);
    expect(server.calls).toHaveLength(4);
    expect(toasts.list()).toHaveLength(1);
  });

  it('shows the toast and keeps polling when the browser refuses to play the sound', async () => {
    server.answer(pending(1, 90));
    server.answer(pending(2, 91, 90));
    const poller = start({ playSound: () => Promise.reject(new DOMException('play() failed', 'NotAllowedError')) });
    await vi.advanceTimersByTimeAsync(0);
    expect(toasts.list()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(CONSULTATION_POLL_MS);
    expect(server.calls).toHaveLength(2);
    expect(poller.running).toBe(true);
  });
});
