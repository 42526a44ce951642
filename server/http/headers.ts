import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { Storage } from '../storage/types';

/**
 * Security headers on every answer (issue "Hardening"; docs/decisions.md "Security headers" says why each source is
 * there, docs/deployment.md which of them a reverse proxy must pass through unchanged). helmet works them out once;
 * an onRequest hook sets them, so the app shell (index.html from the 404 handler), the built files, API answers and
 * stored files all carry them; stored files then replace the policy with a sandbox (`storedFileHeaders`).
 */

export interface SecurityHeaderOptions {
  /**
   * Origins besides the app's own that serve stored files to the page: an S3 bucket's presigned links (key images
   * are `<img src>` of such links). Local storage serves files from the app's origin and needs none.
   */
  fileOrigins?: readonly string[];
  /** Other origins the page talks to: the video SFU's signalling (LIVEKIT_URL, server/consultations/rtc.ts). */
  connectOrigins?: readonly string[];
}

/** The app's Content-Security-Policy, directive by directive (tests and docs read it from here). */
export function appCspDirectives(opts: SecurityHeaderOptions = {}): Record<string, string[]> {
  const files = [...new Set(opts.fileOrigins ?? [])];
  return {
    'default-src': ["'self'"],
    // No inline script (the theme bootstrap is /theme-boot.js); cornerstone's codecs compile WebAssembly.
    'script-src': ["'self'", "'wasm-unsafe-eval'"],
    'script-src-attr': ["'none'"],
    // Tiptap, react-remove-scroll and cornerstone insert <style> elements; report HTML keeps its allowed style attributes.
    'style-src': ["'self'", "'unsafe-inline'"],
    // data: QR codes and inline template images, blob: canvas exports; https: print-template logos, stamps and signatures
    // configured by administrators as addresses on other sites.
    'img-src': ["'self'", 'data:', 'blob:', 'https:', ...files],
    'font-src': ["'self'"],
    // API calls, the screens' event stream; the bucket for presigned downloads.
    'connect-src': ["'self'", ...files, ...new Set(opts.connectOrigins ?? [])],
    // Notification sounds (a group's sound may be an https address) and the calling screen's speech from the API.
    'media-src': ["'self'", 'https:'],
    // The DICOM decoders run in workers.
    'worker-src': ["'self'", 'blob:'],
    'manifest-src': ["'self'"],
    'object-src': ["'none'"],
    'frame-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'"],
    // No screen is meant to be embedded, the waiting-room screen included (it is opened as a page on the TV).
    'frame-ancestors': ["'none'"],
  };
}

/** The policy as one header value. */
export function appCsp(opts: SecurityHeaderOptions = {}): string {
  return Object.entries(appCspDirectives(opts)).map(([name, values]) => `${name} ${values.join(' ')}`).join('; ');
}

/**
 * A stored user file (attachment, upload, avatar, key image, application form, DICOM instance) opened as a page:
 * a sandbox with no script, no plugin, no form and no same-origin access, so even a file a browser would render
 * as a document cannot act as the site.
 */
export const STORED_FILE_CSP = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox; frame-ancestors 'none'";

/** The types a browser shows inline that cannot carry script: shown in place; anything else is downloaded. */
const INLINE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);

/**
 * Headers of a stored user file's answer: the sandbox policy above, and `Content-Disposition: attachment` for any
 * type that is not a plain raster image (a PDF, an unknown type) unless the route already chose a disposition
 * (an attachment's own name; the viewer's DICOM instances, fetched by the viewer, never rendered).
 */
export function storedFileHeaders(reply: FastifyReply, contentType: string): void {
  reply.header('content-security-policy', STORED_FILE_CSP);
  reply.header('x-content-type-options', 'nosniff');
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (!INLINE_TYPES.has(type) && !reply.hasHeader('content-disposition')) reply.header('content-disposition', 'attachment');
}

/**
 * The origin a storage's read links point at when it is not the app's: an S3 bucket's presigned URLs (signed
 * locally: asking for one makes no request). Local storage links are /api/v1/files on the app's own origin.
 */
export async function fileOriginsOf(storage: Storage): Promise<string[]> {
  if (storage.kind !== 's3') return [];
  const url = await storage.readUrl('csp-origin-probe', { expiresInSeconds: 60 });
  return [new URL(url).origin];
}

/**
 * The headers helmet sets for `options`, worked out once. (@fastify/helmet built a new helmet middleware, policy
 * parsing included, on every request: 2 % of a worklist request's CPU under load. The headers never vary per request
 * here: no nonces, no directive computed from the request.)
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string | number) => { headers[name.toLowerCase()] = String(value); },
    removeHeader: () => undefined,
  };
  let finished = false;
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
    finished = true;
  });
  // helmet's middlewares are synchronous; one that were not would leave headers out, so it is refused here.
  if (!finished) throw new Error('helmet did not finish synchronously');
  return headers;
}

/** Registers the headers on every answer of `app` (registered first in buildApp, so no answer goes without them). */
export async function registerSecurityHeaders(app: FastifyInstance, opts: SecurityHeaderOptions = {}): Promise<void> {
  const headers = helmetHeaders({
    contentSecurityPolicy: { useDefaults: false, directives: appCspDirectives(opts) },
    // Permits, file links and share codes travel in URLs: no page sends its address anywhere.
    referrerPolicy: { policy: 'no-referrer' },
    xContentTypeOptions: true,
    xFrameOptions: { action: 'deny' },
    // Only honoured over HTTPS. Without includeSubDomains: the app does not own its neighbours on a hospital's domain.
    strictTransportSecurity: { maxAge: 180 * 24 * 3600, includeSubDomains: false },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    // Would refuse the S3 bucket's images and cornerstone's workers do not need it.
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(headers);
    done();
  });
}
