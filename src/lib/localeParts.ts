/**
 * The locale files are split in two at build time (scripts/localeSplit.ts, a Vite plugin): the namespaces the first
 * paint needs — the sign-in page, the session's dialogs and spinners, error pages, errors — are in the first bundle, and
 * every feature's own texts in a second chunk loaded before the first screen that needs them (the /login budget:
 * the whole default language alone was 29 KB gzipped and grows with every area). The files stay whole in the
 * repository. No imports: the build reads this file too.
 */
export const CORE_NAMESPACES = ['languages', 'common', 'validation', 'errors', 'auth', 'pages', 'session', 'shell', 'nav'] as const;

export type LocalePart = 'core' | 'rest';

/** The namespaces of one part of a locale document. */
export function localePart(document: Record<string, unknown>, part: LocalePart): Record<string, unknown> {
  const core = new Set<string>(CORE_NAMESPACES);
  return Object.fromEntries(Object.entries(document).filter(([key]) => core.has(key) === (part === 'core')));
}
