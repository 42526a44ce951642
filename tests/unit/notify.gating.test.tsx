// @vitest-environment jsdom
import { act, cleanup, render } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Action } from '../../contract/actions';
import type { Permissions, User } from '../../contract/accounts';
import { CONSULTATION_POLL_MS } from '../../contract/constants';
import type { Group } from '../../contract/domain';
import { NotifyPolling } from '@/features/notify/NotifyPolling';
import { bucketsWith, notifyPlan } from '@/features/notify/plan';
import { toasts } from '@/lib/toasts';
import { demoGroup, englishI18n, RAD1_USER } from '../support/notify';

/**
 * Issue 32: each notification goes only to those who can act on it. A new exam is for those who write reports in its
 * organisation, a pending consultation for those who answer consultations; the feed of news a user cannot act on is
 * not even polled. The roles are the demo's (server/seed/demo.ts).
 */

const state = vi.hoisted(() => ({
  session: { status: 'ready' as string, user: null as unknown, groups: [] as unknown[], permissions: null as unknown },
  posts: [] as { path: string; body: unknown }[],
}));
vi.mock('@/lib/session', () => ({ useSession: () => state.session }));
vi.mock('@/lib/http', async (original) => ({
  ...(await original<object>()),
  http: {
    post: (path: string, body: unknown) => {
      state.posts.push({ path, body });
      return Promise.resolve(path === 'exams/newly' ? { items: [EXAM], total: 3 } : { items: [CONSULTATION], total: 2 });
    },
  },
}));

const HOSPITAL = 10;
const CENTRE = 11;
const READING: Action[] = ['exam_get', 'report_upsert', 'report_advice', 'report_print', 'report_trace'];
const ASKING: Action[] = [
  'consultation_create', 'consultation_update', 'consultation_clinicCase_create', 'consultation_clinicCase_delete',
  'consultation_Exam_create', 'consultation_Exam_delete', 'consultation_submitSuggestion',
];
const grant = (actions: Action[]) => ({ type: 1 as const, actions });
const RAD1: Permissions = { [HOSPITAL]: grant([...READING, ...ASKING, 'apply_expert_report', 'apply_remote_report']) };
const REGISTRAR: Permissions = { [HOSPITAL]: grant(['registry_create', 'registry_update', 'registry_delete', 'calling_manage_queue', 'calling_call']) };
const TECH: Permissions = { [HOSPITAL]: grant(['exam_get', 'exam_upload', 'attachment_create', 'attachment_delete', 'attachment_presigned_url', 'attachment_upload']) };
/** Reads the hospital's exams (a technician there) and reports for the expert centre. */
const SPLIT: Permissions = { [HOSPITAL]: grant(['exam_get']), [CENTRE]: grant([...READING, 'consultation_update']) };

const EXAM = {
  id: 501, bucketId: HOSPITAL, bucketName: '市第一人民医院放射科', patientName: '王芳', modality: 'CT', bodyPart: '胸部',
  examTime: new Date(2026, 10, 28, 9, 5).toISOString(),
};
const CONSULTATION = {
  id: 12, patientName: '赵磊', created: new Date(2026, 10, 21, 14, 30).toISOString(), reason: '肝右叶结节', status: 0,
  appliedBucketName: '市第一人民医院放射科', joinedBuckets: [{ id: CENTRE, name: '远程影像专家中心' }], scheduledTime: null,
};

const USER: User = RAD1_USER;
const GROUP: Group = demoGroup({ autoNotifyAudio: '/sounds/exam.wav', autoConsulNotifyAudio: '/sounds/consult.wav' });

let i18n: I18n;
beforeAll(async () => {
  i18n = await englishI18n();
});
beforeEach(() => {
  vi.useFakeTimers();
  toasts.clear();
  localStorage.clear();
  state.posts.length = 0;
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(() => Promise.resolve());
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

async function signedInAs(username: string, permissions: Permissions) {
  state.session = { status: 'ready', user: { ...USER, username }, groups: [GROUP], permissions };
  render(<I18nextProvider i18n={i18n}><NotifyPolling /></I18nextProvider>);
  await act(async () => { await vi.advanceTimersByTimeAsync(0); });
}
/** Long enough for every feed to have polled more than once. */
const later = () => act(async () => { await vi.advanceTimersByTimeAsync(CONSULTATION_POLL_MS * 2); });
const paths = () => [...new Set(state.posts.map((p) => p.path))].sort();
const toastKeys = () => toasts.list().map((t) => t.key).sort();

describe('who is told of what', () => {
  it('tells rad1 of new exams and of pending consultations', async () => {
    await signedInAs('rad1', RAD1);
    expect(paths()).toEqual(['consultations/query-page', 'exams/newly']);
    expect(toastKeys()).toEqual(['notify-consultations', 'notify-exams']);
  });

  it('tells the registrar of neither, and asks the server for neither', async () => {
    await signedInAs('registrar', REGISTRAR);
    expect(toasts.list()).toEqual([]);
    await later();
    expect(state.posts).toEqual([]);
    expect(toasts.list()).toEqual([]);
  });

  it('does not tell a technician, who reads exams but writes no reports, of new exams', async () => {
    await signedInAs('tech', TECH);
    await later();
    expect(state.posts).toEqual([]);
    expect(toasts.list()).toEqual([]);
  });

  it('asks for new exams only in the organisations where the account writes reports', async () => {
    await signedInAs('split', SPLIT);
    await later();
    const exams = state.posts.filter((p) => p.path === 'exams/newly');
    expect(exams.length).toBeGreaterThan(0);
    for (const { body } of exams) {
      expect((body as { filters: unknown[] }).filters).toContainEqual({ field: 'bucketId', operator: 'in', values: [CENTRE] });
    }
    // consultation_update without consultation_submitSuggestion answers nothing: no consultation poll.
    expect(paths()).toEqual(['exams/newly']);
  });
});

describe('the plan: one place that decides which feeds run', () => {
  it('needs both the group sound and the feed action in some organisation', () => {
    expect(notifyPlan([GROUP], RAD1)).toEqual({
      exams: { sound: '/sounds/exam.wav', buckets: [HOSPITAL] },
      consultations: { sound: '/sounds/consult.wav', buckets: [HOSPITAL] },
    });
    expect(notifyPlan([GROUP], REGISTRAR)).toEqual({ exams: null, consultations: null });
    expect(notifyPlan([GROUP], null)).toEqual({ exams: null, consultations: null });
    expect(notifyPlan([{ ...GROUP, autoNotifyAudio: null, autoConsulNotifyAudio: null }], RAD1)).toEqual({ exams: null, consultations: null });
  });

  it('lists the organisations holding an action, in order', () => {
    expect(bucketsWith({ 12: grant(['report_upsert']), 3: grant(['report_upsert']), 7: grant(['exam_get']) }, 'report_upsert')).toEqual([3, 12]);
    expect(bucketsWith(null, 'report_upsert')).toEqual([]);
  });
});
