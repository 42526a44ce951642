import { API_PREFIX, REPORT_VIEW_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from '../../../contract/constants';

/** Core §7: paths that never carry the bearer header (public calls the server answers for anyone). */
export const NO_AUTH_PATHS: readonly string[] = ['accounts', 'accounts/login', 'domain', 'share/report', 'accounts/auth', 'anonymous/report'];
/** Core §7: any path starting with these is sent without the bearer header too. */
export const NO_AUTH_PREFIXES: readonly string[] = ['integration/org-verify-configs', 'integration/exam-reports'];
/** Core §7/§9: the report-view and consult-view requests wait 30 s instead of 15 s. */
const SLOW_SEGMENTS: readonly string[] = ['report-view', 'consult-view'];

/** 'accounts/login?x=1' and '/accounts/login' both become 'accounts/login'. */
export function normalizePath(path: string): string {
  return path.split(/[?#]/, 1)[0]!.replace(/^\/+/, '').replace(/\/+$/, '');
}

/** The base every call goes to: a fixed prefix (origin or sub-path, may be empty) then /api/v1/. */
export function apiBase(prefix: string): string {
  return prefix.replace(/\/+$/, '') + API_PREFIX;
}

/** True when the request must go without `Authorization` (core §7). */
export function omitsBearer(path: string, body: unknown): boolean {
  const p = normalizePath(path);
  if (NO_AUTH_PATHS.includes(p)) return true;
  if (NO_AUTH_PREFIXES.some((prefix) => p.startsWith(prefix))) return true;
  // A form that carries its own token (upload codes, organisation tokens) authenticates itself.
  return typeof FormData !== 'undefined' && body instanceof FormData && body.has('token');
}

export function timeoutFor(path: string): number {
  const segments = normalizePath(path).split('/');
  return segments.some((s) => SLOW_SEGMENTS.includes(s)) ? REPORT_VIEW_TIMEOUT_MS : REQUEST_TIMEOUT_MS;
}
