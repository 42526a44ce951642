import Fastify, { type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { accountRoutes } from './accounts/routes';
import { realmRoutes } from './accounts/realm';
import { callingRoutes } from './calling/routes';
import { consultationRoutes } from './consultations/routes';
import { consultationPartRoutes } from './consultations/partsRoutes';
import { rtcOrigins } from './consultations/rtc';
import { authPlugin } from './auth/plugin';
import type { TrustProxy } from './config';
import type { Deps } from './deps';
import { domainRoutes } from './domain/routes';
import { examRoutes } from './exams/routes';
import { groupRoutes } from './groups/routes';
import { frameworkErrors, installErrorHandler } from './http/errors';
import { fileOriginsOf, registerSecurityHeaders } from './http/headers';
import { analyticsOrigins } from './domain/analytics';
import { redactingLogger } from './http/redact';
import { imageRoutes } from './images/routes';
import { learningRoutes } from './learning/routes';
import { kbRoutes } from './kb/routes';
import { organizationRoutes } from './organizations/routes';
import { packageRoutes } from './packages/routes';
import { registryRoutes } from './registry/routes';
import { reportRoutes } from './reports/routes';
import { shareRoutes } from './shares/routes';
import { fileRoutes } from './storage/routes';
import { uploadRoutes } from './uploads/routes';
import { viewerRoutes } from './viewer/routes';
import { sampleGraphRoutes } from './sampleGraphs/routes';
import { globalConfigRoutes } from './globalConfigs/routes';
import { moneyRoutes } from './payments/money/routes';
import { providerRoutes } from './payments/providers/routes';
import { requestRoutes } from './payments/requests/routes';
import { statisticsRoutes } from './statistics/routes';
import { dicomwebRoutes } from './dicomweb/routes';

/** One plugin per area under /api/v1; later areas add their own line here. */
const AREAS = [domainRoutes, accountRoutes, realmRoutes, groupRoutes, fileRoutes, uploadRoutes, viewerRoutes, imageRoutes, packageRoutes, shareRoutes, reportRoutes, examRoutes, consultationRoutes, consultationPartRoutes, registryRoutes, callingRoutes, organizationRoutes, sampleGraphRoutes, globalConfigRoutes, learningRoutes, kbRoutes, requestRoutes, moneyRoutes, providerRoutes, statisticsRoutes, dicomwebRoutes];

/** The whole request (headers and body) must have arrived by then: see REQUEST_TIMEOUT_MS in server/config.ts. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10 * 60_000;
/** The headers must have arrived by then (Node's default is 60 s; a slow client needs no more for a few lines). */
const HEADERS_TIMEOUT_MS = 30_000;

/** `logger`: on or off (server/main.ts), or Fastify's logger options (a test reads the request log from a stream). */
export async function buildApp(deps: Deps, opts: { logger?: FastifyServerOptions['logger']; serveClient?: boolean; trustProxy?: TrustProxy; requestTimeoutMs?: number; onRoute?: (route: RouteOptions) => void } = {}): Promise<FastifyInstance> {
  const requestTimeout = opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const app = Fastify({
    // Every line goes through the redaction rule (server/http/redact.ts): no permit in a logged URL or message.
    logger: redactingLogger(opts.logger ?? false),
    bodyLimit: 2 * 1024 * 1024,
    // A body that stops arriving (a stalled or slow-drip client) is cut off: Node answers 408 and closes the
    // connection once the request has taken longer than requestTimeout. Node checks open connections every
    // connectionsCheckingInterval, so that is kept well below the timeout. Only the request's arrival is timed: a
    // long handler, a download or a screen's event stream is not.
    requestTimeout,
    http: {
      headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeout),
      connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.floor(requestTimeout / 4))),
    },
    // Router errors (a path parameter over maxParamLength, a path that does not decode) leave as 400 ParamsError.
    frameworkErrors,
    // Off unless configured: otherwise any caller could choose req.ip (the login throttle's per-address key).
    trustProxy: typeof opts.trustProxy === 'number' ? trustHops(opts.trustProxy) : (opts.trustProxy ?? false),
    routerOptions: { ignoreTrailingSlash: true },
    // A process told to stop (SIGTERM) stops accepting connections and answers what already reached it: Fastify's
    // default 503 for requests arriving while it closes would fail a request the balancer had already handed over
    // (a POST it cannot retry). The listener is closed first, so nothing new comes after.
    return503OnClosing: false,
  });
  // First, so that every answer carries them: the app shell from the 404 handler, built files, API answers, errors.
  await registerSecurityHeaders(app, { fileOrigins: await fileOriginsOf(deps.storage), connectOrigins: [...rtcOrigins(deps.config.livekit), ...analyticsOrigins(deps.config.analyticsUrl)] });
  const indexFile = path.join(deps.config.clientDir, 'index.html');
  const serveClient = Boolean(opts.serveClient && existsSync(indexFile));
  installErrorHandler(app, { serveIndex: serveClient });
  // Tests list every route this way (tests/api/fuzz.test.ts).
  if (opts.onRoute) app.addHook('onRoute', opts.onRoute);
  await app.register(authPlugin, { deps });
  await app.register(async (api) => {
    for (const area of AREAS) await api.register(area, { deps });
  }, { prefix: '/api/v1' });

  if (serveClient) {
    await app.register(fastifyStatic, { root: deps.config.clientDir, wildcard: false, index: false });
  }
  return app;
}

/** A hop count as Fastify's typings accept it (they omit the number form proxy-addr understands). */
function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}
