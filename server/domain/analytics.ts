/**
 * Page-view analytics (core §7 names a third-party statistics script on each route change). Off by default: a hospital
 * must not send its staff's page views out. ANALYTICS_URL names a self-hosted collector; the server hands it to the
 * client in GET domain and allows it in the page's Content-Security-Policy (connect-src), and nothing else.
 */
export function analyticsUrlFrom(env: NodeJS.ProcessEnv): string | null {
  const raw = env.ANALYTICS_URL?.trim();
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`ANALYTICS_URL=${raw}: expected an absolute http(s) URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`ANALYTICS_URL=${raw}: expected an http(s) URL`);
  if (url.username || url.password) throw new Error('ANALYTICS_URL: credentials do not belong in a URL every browser is told');
  return url.href;
}

/** The collector's origin for connect-src (the client posts there), or none. */
export function analyticsOrigins(analyticsUrl: string | null | undefined): string[] {
  return analyticsUrl ? [new URL(analyticsUrl).origin] : [];
}
