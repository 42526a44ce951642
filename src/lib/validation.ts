import type { TFunction } from 'i18next';
import { PASSWORD_MAX, PASSWORD_MIN } from '../../contract/constants';
import { checkPassword } from '../../contract/password';

/** Field names core §5 gives messages for; each has a text under validation.fields. */
export type FieldName = 'username' | 'password' | 'oldPassword' | 'newPassword' | 'name' | 'groupName' | 'displayName' | 'reportTitle' | 'mobile';

export type Problem =
  | { rule: 'required'; field: FieldName }
  | { rule: 'confirmMismatch'; field: FieldName }
  | { rule: 'alphaDash'; field: FieldName }
  | { rule: 'lengthBetween'; field: FieldName; min: number; max: number }
  | { rule: 'passwordTooSimple' }
  | { rule: 'passwordSameAsOld' };

/** Core §5: letters, digits, dash and underscore only. */
export const ALPHA_DASH = /^[A-Za-z0-9_-]+$/;

export function required(field: FieldName, value: string): Problem | null {
  return value.trim() === '' ? { rule: 'required', field } : null;
}

export function alphaDash(field: FieldName, value: string): Problem | null {
  return value !== '' && !ALPHA_DASH.test(value) ? { rule: 'alphaDash', field } : null;
}

export function lengthBetween(field: FieldName, value: string, min: number, max: number): Problem | null {
  const length = [...value].length;
  return value !== '' && (length < min || length > max) ? { rule: 'lengthBetween', field, min, max } : null;
}

export function confirmed(field: FieldName, value: string, confirmation: string): Problem | null {
  return value !== confirmation ? { rule: 'confirmMismatch', field } : null;
}

/** Core §5's password rule, the same function the server runs. */
export function password(field: FieldName, value: string): Problem | null {
  const problem = checkPassword(value);
  if (problem === 'required') return { rule: 'required', field };
  if (problem === 'length') return { rule: 'lengthBetween', field, min: PASSWORD_MIN, max: PASSWORD_MAX };
  if (problem === 'tooSimple') return { rule: 'passwordTooSimple' };
  return null;
}

/** The first problem of a field's checks, in order. */
export function firstProblem(...checks: Array<Problem | null>): Problem | null {
  return checks.find((p) => p !== null) ?? null;
}

export function problemText(t: TFunction, problem: Problem | null): string | null {
  if (!problem) return null;
  switch (problem.rule) {
    case 'passwordTooSimple':
      return t('validation.passwordTooSimple');
    case 'passwordSameAsOld':
      return t('validation.passwordSameAsOld');
    case 'lengthBetween':
      return t('validation.lengthBetween', { field: t(`validation.fields.${problem.field}`), min: problem.min, max: problem.max });
    default:
      return t(`validation.${problem.rule}`, { field: t(`validation.fields.${problem.field}`) });
  }
}

/**
 * A validity typed into a field (days of a share link or a film, hours of an upload code): a whole number within the
 * server's bounds, or null. Digits only, so "1e2" or "7.5" is refused here rather than read as something else.
 */
export function wholeNumberWithin(text: string, bounds: { min: number; max: number }): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return value >= bounds.min && value <= bounds.max ? value : null;
}
