/**
 * The locale files are split in two at build time (scripts/localeSplit.ts, a Vite plugin): the texts the first
 * paint needs — the sign-in page, the session's dialogs and spinners, error pages, the errors the sign-in and the
 * transport can meet — are in the first bundle, and every feature's own texts in a second chunk loaded before the
 * first screen that needs them (the /login budget: the whole default language alone was 29 KB gzipped and grows with
 * every area). The files stay whole in the repository. No imports: the build reads this file too.
 */
export const CORE_NAMESPACES = ['languages', 'common', 'validation', 'errors', 'auth', 'pages', 'session', 'shell', 'nav'] as const;

/**
 * Of these namespaces only some keys are core (issue 37, the 120 KB budget): the sign-in page's own texts, and the
 * error codes sign-in, the session and the transport produce. The others (the register and password pages, every
 * feature's error) come with the rest, which every screen but the sign-in page waits for; an error text missing
 * before then reads as `errors.UnknownError` (src/lib/errorText.ts), never as a key.
 */
export const CORE_KEYS: Partial<Record<(typeof CORE_NAMESPACES)[number], readonly string[]>> = {
  auth: ['login'],
  errors: [
    'ParamsError', 'InvalidCredentials', 'JsonWebTokenError', 'TokenExpiredError', 'LoginConflict', 'PasswordResetRequired',
    'AccountDisabled', 'Forbidden', 'NotFound', 'TooManyAttempts', 'OperationFailed', 'UnknownError', 'RequestTimeout',
    'NetworkError', 'ChunkLoadError', 'CSS_CHUNK_LOAD_FAILED', 'NotAcceptable',
  ],
};

export type LocalePart = 'core' | 'rest';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The texts of one part of a locale document (a namespace split by key appears in both, with different keys). */
export function localePart(document: Record<string, unknown>, part: LocalePart): Record<string, unknown> {
  const core = new Set<string>(CORE_NAMESPACES);
  const out: Record<string, unknown> = {};
  for (const [namespace, texts] of Object.entries(document)) {
    const keys = (CORE_KEYS as Record<string, readonly string[] | undefined>)[namespace];
    if (!core.has(namespace) || !keys || !isObject(texts)) {
      if (core.has(namespace) === (part === 'core')) out[namespace] = texts;
      continue;
    }
    const wanted = new Set(keys);
    const picked = Object.fromEntries(Object.entries(texts).filter(([key]) => wanted.has(key) === (part === 'core')));
    if (Object.keys(picked).length > 0) out[namespace] = picked;
  }
  return out;
}
