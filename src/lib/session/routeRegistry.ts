import { parse } from 'regexparam';
import { matchRoute } from 'wouter';

/**
 * The paths of the screens this build has, filled by the composition root (src/app/routes.tsx) when the route
 * table loads. Shared code and features ask here whether a link leads anywhere (navbar entries, settings
 * sections, the landing page) without importing the table, which imports them: the arrow stays one-way.
 */
let registered: readonly string[] = [];

export function registerRoutePaths(paths: readonly string[]): void {
  registered = paths;
}

/** The first pattern of `table` a path (without query) matches, if any. */
export function matchingPattern(pathname: string, table: readonly string[] = registered): string | undefined {
  return table.find((pattern) => matchRoute(parse, pattern, pathname)[0]);
}

/** True when the link leads to a screen of this build (query and hash ignored). */
export function isRegistered(href: string, table: readonly string[] = registered): boolean {
  return matchingPattern(href.split(/[?#]/, 1)[0]!, table) !== undefined;
}

let warmer: ((path: string) => void) | null = null;

/** The composition root (src/app/AppRoutes.tsx) says how a path's code is fetched ahead of showing it. */
export function registerRouteWarmer(warm: (path: string) => void): void {
  warmer = warm;
}

/**
 * Starts fetching the code and texts of the screen at `path` (and of the signed-in frame around it) without showing
 * anything, so they arrive while something else is waited for: the sign-in's calls, the session's restore (issue 37:
 * the frame, then the screen, then its rows, one after another, made the first rows after sign-in take over a
 * second). Failures are left to the real load, which reports them.
 */
export function warmRoute(path: string): void {
  warmer?.(path);
}
