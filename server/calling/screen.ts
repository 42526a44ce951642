import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { SCREEN_HEARTBEAT_MS, ttsQuery, type ScreenCall, type ScreenEventName, type ScreenState } from '../../contract/calling';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';
import { callingDesk, settingsOf } from './access';
import type { CallingHub } from './hub';
import { screenState } from './present';
import { createScreenFeed, liveTokenHashes } from './feed';
import { screenTokenBucket, tokenHash } from './screenTokens';
import { speak } from './tts';
import { idValue } from '../../contract/common';
import { DRAINING } from '../http/drain';

/**
 * The waiting-room screen's calls: its state, its Server-Sent Events stream and speech. A screen has no login
 * prompt: it holds a long-lived screen token (query `token`, or `Authorization: Bearer scr_…`); a signed-in member
 * of the organisation with a calling right may open the same calls. Both paths are served:
 * buckets/{id}/screen/… and calling/{id}/screen/… (the first screen's).
 */
const bucketParam = z.object({ id: idValue });
const screenQuery = z.object({ token: z.string().max(128).optional(), once: z.enum(['1']).optional() }).passthrough();
/** The screen's calls authenticate by screen token themselves (a signed-in member's bearer token works too). */
const pub = { config: { public: true } };

function screenTokenOf(req: FastifyRequest, body?: unknown): string | null {
  const { token } = parse(screenQuery, req.query);
  if (token) return token;
  const fromBody = (body as { token?: unknown } | undefined)?.token;
  if (typeof fromBody === 'string') return fromBody;
  const [scheme, value] = (req.headers.authorization ?? '').split(' ');
  return scheme?.toLowerCase() === 'bearer' && value?.startsWith('scr_') ? value : null;
}

/** The calls that happened between two states: a new current number, or the same one called again. */
export function callsBetween(before: ScreenState | null, after: ScreenState): ScreenCall[] {
  const stamp = (c: { queueNo: string; calledTime: string; callCount: number } | null) => (c ? `${c.queueNo}@${c.calledTime}#${c.callCount}` : null);
  return after.queues.flatMap((q) => {
    const was = before?.queues.find((b) => b.id === q.id)?.current ?? null;
    if (!q.current || stamp(q.current) === stamp(was)) return [];
    return [{ queueTypeId: q.id, queueName: q.name, queueNo: q.current.queueNo, room: q.room, patientName: q.current.patientName, calledTime: q.current.calledTime, callCount: q.current.callCount }];
  });
}

export function screenRoutes(app: FastifyInstance, deps: Deps, hub: CallingHub) {
  const { db } = deps;

  /** Who may see the organisation's screen: a live screen token of it (401 otherwise), or a signed-in calling member. */
  async function screenAllowed(req: FastifyRequest, bucketId: number): Promise<void> {
    const token = screenTokenOf(req);
    if (token) {
      if ((await screenTokenBucket(db, token)) !== bucketId) throw new ApiError('JsonWebTokenError', 'The screen token is not valid (revoked?)');
      const settings = await settingsOf(db, bucketId);
      if (!settings?.enabled) throw new ApiError('Forbidden', 'Calling is not enabled for this group');
      return;
    }
    if (req.auth) {
      await callingDesk(db, await req.auth.access(), bucketId);
      return;
    }
    throw new ApiError('JsonWebTokenError', 'A valid screen token is needed');
  }

  const stateOf = async (bucketId: number): Promise<ScreenState> => {
    const state = await screenState(db, bucketId, deps.clock.now());
    if (!state) throw new ApiError('NotFound');
    return state;
  };
  const feed = createScreenFeed(hub, stateOf, (bucketId) => liveTokenHashes(db, bucketId));

  async function state(req: FastifyRequest) {
    const { id } = parse(bucketParam, req.params);
    await screenAllowed(req, id);
    return stateOf(id);
  }

  // A process shutting down (SIGTERM: a rolling restart, server/http/drain.ts) ends its screens' streams first: the stop
  // waits for every open connection, and a stream never ends by itself. The screens reconnect (retry: 3000) through the
  // balancer to a process still running and get the whole state at once.
  const openStreams = new Set<() => void>();
  const endStreams = () => { for (const close of [...openStreams]) close(); };
  app.server.on(DRAINING, endStreams);
  app.addHook('preClose', async () => { endStreams(); app.server.off(DRAINING, endStreams); });

  async function stream(req: FastifyRequest, reply: FastifyReply) {
    const { id } = parse(bucketParam, req.params);
    await screenAllowed(req, id);
    const token = screenTokenOf(req);
    let last = await stateOf(id);
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    let serial = 0;
    const sendJson = (event: ScreenEventName, json: string) => raw.write(`id: ${Date.now()}-${serial++}\nevent: ${event}\ndata: ${json}\n\n`);
    const send = (event: ScreenEventName, data: unknown) => sendJson(event, JSON.stringify(data));
    // On connect and on every reconnect (Last-Event-ID or not) the whole state: the screen is current at once, and
    // nothing is announced again.
    raw.write('retry: 3000\n\n');
    send('state', last);
    // ?once=1: the state and the end (monitoring, and clients that cannot hold a stream open).
    if (parse(screenQuery, req.query).once) {
      raw.end();
      return;
    }
    let open = true;
    const close = () => {
      if (!open) return;
      open = false;
      openStreams.delete(close);
      clearInterval(beat);
      leave();
      raw.end();
    };
    const hash = token ? tokenHash(token) : null;
    // The organisation's state is read once per change for all its screens (feed.ts); this screen only checks its
    // token, and the calls since its last state (worked out once for the screens that had the same one).
    const leave = feed.join(id, (result) => {
      if (!open) return;
      // A token revoked while the screen is connected ends its stream (EventSource then finds 401 and stops).
      if (hash && !result.liveHashes.has(hash)) return close();
      const calls = result.previous !== null && result.previous === last
        ? (result.callsSincePrevious ??= callsBetween(last, result.state)) : callsBetween(last, result.state);
      last = result.state;
      sendJson('state', result.json);
      for (const call of calls) send('call', call);
    });
    const beat = setInterval(() => raw.write(': ping\n\n'), SCREEN_HEARTBEAT_MS);
    openStreams.add(close);
    req.raw.on('close', close);
  }

  for (const base of ['buckets', 'calling']) {
    app.get(`/${base}/:id/screen/state`, pub, state);
    app.get(`/${base}/:id/screen/stream`, pub, stream);
  }

  async function ttsReply(reply: FastifyReply, input: z.output<typeof ttsQuery>) {
    const audio = await speak(input.text, input.lang);
    // Nothing is cached: the text may carry a (masked) name.
    return reply.header('content-type', 'audio/wav').header('cache-control', 'no-store').send(audio);
  }
  app.get('/calling/:id/tts', pub, async (req, reply) => {
    const { id } = parse(bucketParam, req.params);
    await screenAllowed(req, id);
    return ttsReply(reply, parse(ttsQuery, req.query));
  });

  /** GET/POST tts: a signed-in account with a calling right somewhere, or a live screen token of a calling group. */
  async function ttsAllowed(req: FastifyRequest, body?: unknown): Promise<void> {
    const token = screenTokenOf(req, body);
    if (token) {
      const bucketId = await screenTokenBucket(db, token);
      if (bucketId === null) throw new ApiError('JsonWebTokenError', 'The screen token is not valid (revoked?)');
      if (!(await settingsOf(db, bucketId))?.enabled) throw new ApiError('Forbidden', 'Calling is not enabled for this group');
      return;
    }
    if (!req.auth) throw new ApiError('JsonWebTokenError', 'No token');
    const access = await req.auth.access();
    if (![...access.buckets.values()].some((g) => g.actions.has('calling_call') || g.actions.has('calling_manage_queue'))) throw new ApiError('Forbidden');
  }
  app.get('/tts', pub, async (req, reply) => {
    await ttsAllowed(req);
    return ttsReply(reply, parse(ttsQuery, req.query));
  });
  app.post('/tts', pub, async (req, reply) => {
    await ttsAllowed(req, req.body);
    return ttsReply(reply, parse(ttsQuery, req.body ?? {}));
  });
}
