import type { TFunction } from 'i18next';
import { isHttpError } from './http';

/**
 * The text to show for a failed call: the catalogue code through `errors.<code>`, with the error's details. Before the
 * feature texts are in (the sign-in page has only the core errors, src/lib/localeParts.ts) an other code reads as the
 * generic error, never as its key.
 */
export function errorText(t: TFunction, error: unknown): string {
  if (isHttpError(error)) return t([`errors.${error.code}`, 'errors.UnknownError'], { name: '', ...(error.details ?? {}) }) as string;
  return t('errors.UnknownError');
}
