import type { FastifyServerOptions } from 'fastify';

/**
 * Secrets never reach the log (issue 32 "Secrets in the request log"; docs/decisions.md). URLs carry permits — a
 * calling screen's token (valid until revoked), signed file and download tokens, the payment sandbox's `s`
 * signature, upload codes and organisation upload tokens in the path, share links, a patient's `verifies` — and
 * Fastify logs every request's URL. One rule, not a list of today's parameters, so that tomorrow's permit is
 * covered too:
 *
 * - a query parameter (or a `name=value` pair in a message) whose NAME says it is a credential
 *   ({@link SECRET_NAME}: token, secret, signature, sig, password, key, code, ticket, link, auth, credential,
 *   otp, nonce, permit, verif…, session, and the one-letter `s`), whatever its value;
 * - any value or path segment that LOOKS like a permit ({@link looksSecret}): a JWT-shaped or signed token, or a run
 *   of 20+ base64url / hex characters mixing at least two of upper case, lower case and digits (random bytes do;
 *   route names, numeric ids, dates and DICOM UIDs do not);
 * - a path segment that follows a collection of credentials (`upload-tokens/{token}`, `upload-codes/{code}`: a
 *   segment ending in -tokens, -codes, -secrets, -tickets, -permits, -keys or -links), unless it is a plain number.
 *
 * What is redacted is replaced by {@link REDACTED}; the rest of the URL stays, so the log still says which route was
 * called. Applied once, in Fastify's logger options ({@link redactingLogger}, server/app.ts): the request
 * serializer's URL, error messages and stacks, and every string handed to a log method.
 */
export const REDACTED = '[redacted]';

/** A parameter name that says its value is a credential. */
export const SECRET_NAME = /token|secret|signature|^sig$|passw|pwd|key|code|ticket|link|auth|credential|otp|nonce|permit|verif|session|^s$/i;

/** A path segment that names a collection of credentials: the segment after it is one. */
const SECRET_COLLECTION = /(^|[-_])(tokens|codes|secrets|tickets|permits|keys|links)$/i;

const RANDOM_RUN = /^[A-Za-z0-9_\-+/=]{20,}$/;

function classes(part: string): number {
  return Number(/[A-Z]/.test(part)) + Number(/[a-z]/.test(part)) + Number(/[0-9]/.test(part));
}

/** A value that looks like a permit: a JWT-shaped or signed token, or a long random run (see the module's comment). */
export function looksSecret(value: string): boolean {
  const text = decode(value);
  if (/^eyJ[\w-]*\.[\w-]*/.test(text)) return true;
  return text.split('.').some((part) => RANDOM_RUN.test(part) && classes(part) >= 2);
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

function redactQuery(query: string): string {
  return query.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    if (eq < 0) return looksSecret(pair) ? REDACTED : pair;
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    return value !== '' && (SECRET_NAME.test(decode(name)) || looksSecret(value)) ? `${name}=${REDACTED}` : pair;
  }).join('&');
}

function redactPath(pathname: string): string {
  const segments = pathname.split('/');
  return segments.map((segment, i) => {
    if (segment === '') return segment;
    const afterCollection = i > 0 && SECRET_COLLECTION.test(segments[i - 1]!) && !/^\d{1,12}$/.test(segment);
    return afterCollection || looksSecret(segment) ? REDACTED : segment;
  }).join('/');
}

/** A URL (path and query, or absolute) with its secrets replaced by {@link REDACTED}. */
export function redactUrl(url: string): string {
  const hash = url.indexOf('#');
  const withoutHash = hash < 0 ? url : url.slice(0, hash);
  const q = withoutHash.indexOf('?');
  const head = q < 0 ? withoutHash : withoutHash.slice(0, q);
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(head)?.[0] ?? '';
  const redacted = origin + redactPath(head.slice(origin.length)) + (q < 0 ? '' : `?${redactQuery(withoutHash.slice(q + 1))}`);
  return hash < 0 ? redacted : `${redacted}#${REDACTED}`;
}

const URLISH = /(?:\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+|(?<![\w.])\/[^\s"'<>]*|\?[^\s"'<>]+)/gi;
const PAIR = /(?<![\w-])([A-Za-z_][\w-]*)=([^&\s"'<>,;]+)/g;
const JWTISH = /\beyJ[\w-]+\.[\w-]+(?:\.[\w-]*)?/g;

/** Free text (a log message, an error's message or stack) with the secrets of any URL, `name=value` pair or token in it redacted. */
export function redactText(text: string): string {
  return text
    .replace(URLISH, (match) => (match.startsWith('?') ? `?${redactQuery(match.slice(1))}` : redactUrl(match)))
    .replace(PAIR, (match, name: string, value: string) => (value !== REDACTED && (SECRET_NAME.test(name) || looksSecret(value)) ? `${name}=${REDACTED}` : match))
    .replace(JWTISH, REDACTED);
}

interface RequestLike { method?: string; url?: string; headers?: Record<string, unknown>; host?: string; ip?: string; socket?: { remotePort?: number } }

/** Fastify's request serializer (its fields), with the URL redacted. */
export function redactedRequest(req: RequestLike) {
  return {
    method: req.method,
    url: typeof req.url === 'string' ? redactUrl(req.url) : req.url,
    version: req.headers?.['accept-version'],
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/** pino's error serializer's shape (type, message, stack, own fields, cause), every string redacted. */
export function redactedError(err: unknown, depth = 0): unknown {
  if (!(err instanceof Error)) return typeof err === 'string' ? redactText(err) : err;
  const out: Record<string, unknown> = { type: err.constructor?.name ?? 'Error', message: redactText(err.message), stack: redactText(err.stack ?? '') };
  for (const [k, v] of Object.entries(err)) {
    if (k === 'message' || k === 'stack' || k === 'cause') continue;
    out[k] = typeof v === 'string' ? redactText(v) : v;
  }
  if (err.cause !== undefined && depth < 3) out.cause = redactedError(err.cause, depth + 1);
  return out;
}

type LoggerOption = FastifyServerOptions['logger'];
type LoggerOptions = Exclude<LoggerOption, boolean | undefined>;

/**
 * Fastify's logger option with the redaction installed: the request serializer, the error serializer, and a hook that
 * redacts every string argument of every log call (messages and their interpolations). `false` stays off.
 */
export function redactingLogger(logger: LoggerOption): LoggerOption {
  if (!logger) return false;
  const base: LoggerOptions = logger === true ? {} : logger;
  const hooks = (base as { hooks?: Record<string, unknown> }).hooks ?? {};
  return {
    ...base,
    serializers: { ...base.serializers, req: redactedRequest, err: redactedError },
    hooks: {
      ...hooks,
      logMethod(this: unknown, args: unknown[], method: (...a: unknown[]) => void) {
        method.apply(this, args.map((a) => (typeof a === 'string' ? redactText(a) : a)));
      },
    },
  } as LoggerOptions;
}
