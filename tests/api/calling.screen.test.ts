import { eq, sql } from 'drizzle-orm';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueueEntry, QueueType, ScreenCall, ScreenState, ScreenToken } from '../../contract/calling';
import { createHub, notifyInTransaction } from '../../server/calling/hub';
import * as t from '../../server/db/schema';
import { insertExam, tokenOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/**
 * The waiting-room screen (issue 11): a screen token issued and revoked by a queue manager; the stream sends the
 * whole state at once, then a state and a `call` event for each call made through the API; privacy-safe calls carry
 * number and room only, in states and events; speech by espeak-ng (or TtsUnavailable where it is not installed);
 * several API processes reach every screen through PostgreSQL LISTEN/NOTIFY.
 */
let s: TestServer;
let registrar: string;
let hospital: number;

async function newQueue(prefix: string): Promise<QueueType> {
  const res = await s.request('POST', `buckets/${hospital}/queue-types`, { token: registrar, body: { prefix, name: `队列${prefix}`, modality: 'CT', room: `${prefix} 室` } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as QueueType;
}

async function checkIn(type: QueueType, name: string): Promise<QueueEntry> {
  const examId = await insertExam(s, { bucketId: hospital });
  await s.db.db.update(t.exams).set({ patientName: name }).where(eq(t.exams.id, examId));
  const res = await s.request('POST', 'queue-exams/check-in', { token: registrar, body: { examId, queueTypeId: type.id } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as QueueEntry;
}

async function issue(): Promise<string> {
  const res = await s.request('POST', `buckets/${hospital}/screen-tokens`, { token: registrar, body: { name: '候诊大厅' } });
  expect(res.status).toBe(200);
  return (res.body as ScreenToken).token!;
}

interface Message { event: string; data: unknown; raw: string }

/**
 * Opens the stream and reads its messages until `until` holds (or the server ends it, or 5 s pass); `onOpen` runs
 * once the first state arrived. `auth` 'header' sends the token as a bearer header instead of in the query.
 */
async function watch(token: string, o: { onOpen?: () => unknown; until: (m: Message[]) => boolean; auth?: 'query' | 'header'; base?: 'buckets' | 'calling' }) {
  const controller = new AbortController();
  const base = o.base ?? 'buckets';
  const query = o.auth === 'header' ? '' : `?token=${encodeURIComponent(token)}`;
  const res = await fetch(`${s.url}/api/v1/${base}/${hospital}/screen/stream${query}`, {
    signal: controller.signal, headers: o.auth === 'header' ? { authorization: `Bearer ${token}` } : {},
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const messages: Message[] = [];
  let buffer = '';
  let ended = false;
  const timer = setTimeout(() => controller.abort(), 5000);
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) {
        ended = true;
        break;
      }
      buffer += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const raw = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const event = /^event: (.+)$/m.exec(raw)?.[1];
        const data = /^data: (.+)$/m.exec(raw)?.[1];
        if (!event || !data) continue;
        messages.push({ event, data: JSON.parse(data), raw });
        if (messages.length === 1) await o.onOpen?.();
        if (o.until(messages)) return { messages, ended };
      }
    }
  } catch (err) {
    if (!controller.signal.aborted) throw err;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return { messages, ended };
}

const queueIn = (m: Message, id: number) => (m.data as ScreenState).queues.find((q) => q.id === id)!;
const callNext = (type: QueueType) => s.request('POST', `queue-types/${type.id}/call-next`, { token: registrar, body: {} });

beforeAll(async () => {
  s = await startServer({ exams: 10 });
  registrar = await tokenOf(s, 'registrar');
  hospital = s.ids.hospitalId;
});
afterAll(async () => s?.close());

describe('the screen stream', () => {
  it('sends the whole state at once, then a state and a call event per call (masked name), a recall too', async () => {
    const token = await issue();
    const type = await newQueue('S');
    const entry = await checkIn(type, '张小明');
    await checkIn(type, '李四');
    // The recall goes once the call was announced: two changes within one read are one state (and one call) by design.
    let recalled = false;
    const { messages } = await watch(token, {
      onOpen: async () => void (await callNext(type)),
      until: (m) => {
        const calls = m.filter((x) => x.event === 'call').length;
        if (calls === 1 && !recalled) {
          recalled = true;
          void s.request('POST', `queue-exams/${entry.id}/action`, { token: registrar, body: { action: 'recall' } });
        }
        return calls >= 2;
      },
    });
    expect(messages[0]!.event).toBe('state');
    expect(messages[0]!.raw).toMatch(/^id: \S+/m);
    expect(queueIn(messages[0]!, type.id)).toMatchObject({ current: null, next: [entry.queueNo, 'S002'], room: 'S 室' });
    const calls = messages.filter((m) => m.event === 'call').map((m) => m.data as ScreenCall);
    expect(calls).toMatchObject([
      { queueTypeId: type.id, queueNo: entry.queueNo, room: 'S 室', patientName: '张*明', callCount: 1 },
      { queueTypeId: type.id, queueNo: entry.queueNo, room: 'S 室', patientName: '张*明', callCount: 2 },
    ]);
    const last = messages.filter((m) => m.event === 'state').at(-1)!;
    expect(queueIn(last, type.id)).toMatchObject({ current: { queueNo: entry.queueNo, patientName: '张*明' }, next: ['S002'] });
    // The full name is never on the screen.
    expect(JSON.stringify(messages.map((m) => m.data))).not.toContain('张小明');
  });

  it('takes the token as a bearer header, and serves the first screen path calling/{id}/screen/stream', async () => {
    const token = await issue();
    for (const base of ['buckets', 'calling'] as const) {
      const { messages } = await watch(token, { auth: base === 'buckets' ? 'header' : 'query', base, until: (m) => m.length >= 1 });
      expect(messages[0]).toMatchObject({ event: 'state', data: { privacy: false } });
    }
  });

  it('resumes with the current state after a drop (Last-Event-ID)', async () => {
    const token = await issue();
    const type = await newQueue('L');
    const entry = await checkIn(type, '王五');
    await callNext(type);
    const res = await fetch(`${s.url}/api/v1/buckets/${hospital}/screen/stream?token=${encodeURIComponent(token)}&once=1`, { headers: { 'last-event-id': '1-0' } });
    const text = await res.text();
    const state = JSON.parse(/^data: (.+)$/m.exec(text)![1]!) as ScreenState;
    expect(state.queues.find((q) => q.id === type.id)!.current).toMatchObject({ queueNo: entry.queueNo });
    // No call is announced again on a reconnect.
    expect(text).not.toContain('event: call');
  });

  it('refuses a revoked or forged token (401), and ends the stream of a token revoked while connected', async () => {
    const token = await issue();
    const list = await s.request('GET', `buckets/${hospital}/screen-tokens`, { token: registrar });
    expect(list.body.every((x: ScreenToken) => x.token === undefined)).toBe(true);
    const id = (list.body as ScreenToken[])[0]!.id;
    const { ended } = await watch(token, {
      onOpen: async () => expect((await s.request('DELETE', `buckets/${hospital}/screen-tokens/${id}`, { token: registrar })).status).toBe(200),
      until: () => false,
    });
    expect(ended).toBe(true);
    for (const path of [`buckets/${hospital}/screen/state`, `buckets/${hospital}/screen/stream`, `calling/${hospital}/screen/state`]) {
      expect((await fetch(`${s.url}/api/v1/${path}?token=${encodeURIComponent(token)}`)).status).toBe(401);
    }
    expect((await fetch(`${s.url}/api/v1/buckets/${hospital}/screen/state?token=scr_forged`)).status).toBe(401);
    expect((await fetch(`${s.url}/api/v1/buckets/${hospital}/screen/state`)).status).toBe(401);
    // A live token of one organisation opens no other's screen.
    const live = await issue();
    expect((await fetch(`${s.url}/api/v1/buckets/${s.ids.expertCentreId}/screen/state?token=${encodeURIComponent(live)}`)).status).toBe(401);
  });

  it('carries number and room only when privacy is on: state and call events', async () => {
    const token = await issue();
    expect((await s.request('PUT', `buckets/${hospital}/calling-settings`, { token: registrar, body: { privacy: true } })).status).toBe(200);
    try {
      const type = await newQueue('P');
      await checkIn(type, '李秘密');
      const { messages } = await watch(token, { onOpen: () => callNext(type), until: (m) => m.some((x) => x.event === 'call') });
      const call = messages.find((m) => m.event === 'call')!.data as ScreenCall;
      expect(call).toMatchObject({ queueNo: 'P001', room: 'P 室', patientName: null });
      expect(messages.every((m) => (m.data as { privacy?: boolean }).privacy !== false)).toBe(true);
      const text = JSON.stringify(messages.map((m) => m.data));
      expect(text).not.toContain('李');
      const res = await fetch(`${s.url}/api/v1/buckets/${hospital}/screen/state?token=${encodeURIComponent(token)}`);
      const state = (await res.json()) as ScreenState;
      expect(state.privacy).toBe(true);
      expect(JSON.stringify(state)).not.toContain('李');
      expect(state.queues.find((q) => q.id === type.id)!.current).toMatchObject({ queueNo: 'P001', patientName: null });
    } finally {
      await s.request('PUT', `buckets/${hospital}/calling-settings`, { token: registrar, body: { privacy: false } });
    }
  });
});

describe('fan-out', () => {
  it('reaches a screen of another hub: LISTEN/NOTIFY on PostgreSQL, in-process on PGlite', async () => {
    if (s.db.kind === 'postgres') {
      const result: unknown = await s.db.db.execute(sql`select current_database() as name`);
      const [row] = (result as { rows: { name: string }[] }).rows;
      const url = new URL(process.env.DATABASE_URL!);
      url.pathname = `/${row!.name}`;
      // Two hubs as two API processes would have them: a publish on one reaches the other's screens.
      const [a, b] = [createHub(s.db.db, url.toString()), createHub(s.db.db, url.toString())];
      try {
        const heard = new Promise<string>((resolve) => b.subscribe(4242, () => resolve('b')));
        await new Promise((r) => setTimeout(r, 200)); // both LISTENing
        await a.publish(4242);
        expect(await Promise.race([heard, new Promise((r) => setTimeout(() => r('timeout'), 3000))])).toBe('b');
      } finally {
        await a.close();
        await b.close();
      }
    } else {
      const hub = createHub(s.db.db, null);
      try {
        let heard = 0;
        hub.subscribe(4242, () => (heard += 1));
        await s.db.db.transaction((tx) => notifyInTransaction(tx, 4242));
        expect(heard).toBe(1);
      } finally {
        await hub.close();
      }
    }
  });
});

describe('speech', () => {
  const engine = ['/usr/bin/espeak-ng', '/usr/local/bin/espeak-ng'].some((p) => existsSync(p));

  it(`speaks Chinese and English as WAV audio${engine ? '' : ' — here: TtsUnavailable, espeak-ng is not installed'}`, async () => {
    const token = await issue();
    const byScreen = await fetch(`${s.url}/api/v1/calling/${hospital}/tts?${new URLSearchParams({ token, text: '请 A003 号 到 CT 1 室 检查', lang: 'chs' })}`);
    const byUser = await s.app.inject({ method: 'POST', url: '/api/v1/tts', headers: { authorization: `Bearer ${registrar}` }, payload: { text: 'Number A003, please go to room 1', lang: 'en' } });
    if (engine) {
      for (const audio of [Buffer.from(await byScreen.arrayBuffer()), byUser.rawPayload]) {
        expect(audio.subarray(0, 4).toString('latin1')).toBe('RIFF');
        expect(audio.subarray(8, 12).toString('latin1')).toBe('WAVE');
        expect(audio.length).toBeGreaterThan(10_000);
      }
      expect(byScreen.status).toBe(200);
      expect(byScreen.headers.get('content-type')).toBe('audio/wav');
      expect(byScreen.headers.get('cache-control')).toBe('no-store');
      expect(byUser.statusCode).toBe(200);
    } else {
      expect(byScreen.status).toBe(503);
      expect(((await byScreen.json()) as { code: string }).code).toBe('TtsUnavailable');
      expect(byUser.json()).toMatchObject({ code: 'TtsUnavailable', details: { reason: 'no-engine' } });
    }
  });

  it('has no Tibetan voice (TtsUnavailable no-voice), limits the text, wants a token', async () => {
    const token = await issue();
    const tib = await fetch(`${s.url}/api/v1/tts?${new URLSearchParams({ token, text: 'A003', lang: 'tib' })}`);
    expect(tib.status).toBe(503);
    expect(await tib.json()).toMatchObject({ code: 'TtsUnavailable', details: { reason: 'no-voice' } });
    expect((await fetch(`${s.url}/api/v1/tts?${new URLSearchParams({ token, text: 'x'.repeat(201), lang: 'en' })}`)).status).toBe(400);
    expect((await fetch(`${s.url}/api/v1/tts?${new URLSearchParams({ text: 'A003', lang: 'en' })}`)).status).toBe(401);
    expect((await fetch(`${s.url}/api/v1/tts?${new URLSearchParams({ token: 'scr_forged', text: 'A003', lang: 'en' })}`)).status).toBe(401);
    // A member without a calling right anywhere.
    expect((await s.request('GET', `tts?text=A003&lang=en`, { token: await tokenOf(s, 'rad1') })).status).toBe(403);
  });
});
