import { matchingPattern } from '@/lib/session/routeRegistry';
import { routes, type AppRoute } from './routes';

/** The registered route a path (without query) belongs to, if any. */
export function findRoute(pathname: string, table: readonly AppRoute[] = routes): AppRoute | undefined {
  const pattern = matchingPattern(pathname, table.map((route) => route.path));
  return table.find((route) => route.path === pattern);
}
