import type { TFunction } from 'i18next';
import type { SessionError } from '../../../machines/session';

/** The sign-in failure as the user reads it; too many attempts says how long to wait. */
export function loginErrorText(t: TFunction, error: SessionError): string {
  if (error.code === 'TooManyAttempts') {
    const seconds = Number(error.details?.retryAfter);
    if (Number.isFinite(seconds) && seconds > 0) return t('auth.login.retryAfter', { minutes: Math.ceil(seconds / 60) });
  }
  // Only the core errors are in on this page (src/lib/localeParts.ts): an other code reads as the generic one.
  return t([`errors.${error.code}` as 'errors.UnknownError', 'errors.UnknownError'], { name: '' });
}
