import type { TFunction } from 'i18next';
import { isHttpError } from './http';

/** The text to show for a failed call: the catalogue code through `errors.<code>`, with the error's details. */
export function errorText(t: TFunction, error: unknown): string {
  if (isHttpError(error)) return t(`errors.${error.code}`, { name: '', ...(error.details ?? {}) }) as string;
  return t('errors.UnknownError');
}
