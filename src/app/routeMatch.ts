import { parse } from 'regexparam';
import { matchRoute } from 'wouter';
import { routes, type AppRoute } from './routes';

/** The registered route a path (without query) belongs to, if any. */
export function findRoute(pathname: string, table: readonly AppRoute[] = routes): AppRoute | undefined {
  return table.find((route) => matchRoute(parse, route.path, pathname)[0]);
}

/** True when the link leads to a screen of this build (query and hash ignored). */
export function isRegistered(href: string, table: readonly AppRoute[] = routes): boolean {
  return findRoute(href.split(/[?#]/, 1)[0]!, table) !== undefined;
}
