/** What one page view tells the collector: the screen, never who, never what was searched or opened. */
export interface PageView {
  /** The path with numbers as ':id', without query or hash. */
  path: string;
  language: string;
  /** ISO time the route was entered. */
  at: string;
}

/**
 * The path as reported: the query and hash are dropped (search words, share codes, sign-in tokens travel there) and
 * every segment with a digit becomes ':id' (exam, report and consultation ids point at patients' records). What is
 * left names the screen: /studies/:id/reports/:id.
 */
export function pageViewPath(location: string): string {
  const path = location.split(/[?#]/, 1)[0] || '/';
  return path.split('/').map((segment) => (/\d/.test(segment) ? ':id' : segment)).join('/');
}

export type Send = (endpoint: string, view: PageView) => void;

/**
 * Page views on route changes, only when a collector is configured (GET domain's analyticsUrl; off by default). One
 * view per screen entered: the same path again (a query change, a re-render) is not another view.
 */
export function createPageViewTracker(endpoint: string | null, send: Send, now: () => Date = () => new Date()) {
  let last: string | null = null;
  return {
    view(location: string, language: string): boolean {
      if (!endpoint) return false;
      const path = pageViewPath(location);
      if (path === last) return false;
      last = path;
      send(endpoint, { path, language, at: now().toISOString() });
      return true;
    },
  };
}

/**
 * Sends a view without holding up the page: a beacon as text/plain (a "simple" request: no CORS preflight, no
 * credentials header of ours), or a keepalive fetch where beacons are missing. Failures are ignored: analytics never
 * gets in the way of work.
 */
export const beacon: Send = (endpoint, view) => {
  const body = JSON.stringify(view);
  try {
    if (typeof navigator !== 'undefined' && typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(endpoint, new Blob([body], { type: 'text/plain' }))) return;
    void fetch(endpoint, { method: 'POST', body, keepalive: true, mode: 'no-cors', credentials: 'omit', headers: { 'content-type': 'text/plain' } }).catch(() => undefined);
  } catch {
    // A collector that cannot be reached (or a CSP that refuses it) must not break navigation.
  }
};
