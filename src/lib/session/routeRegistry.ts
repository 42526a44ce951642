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
