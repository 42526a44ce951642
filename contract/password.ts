import { PASSWORD_MAX, PASSWORD_MIN } from './constants';

/**
 * Core §5: 6 to 32 characters with at least two of three kinds (letters, digits, other).
 * The server enforces it; the client runs the same function for early feedback.
 */
export function passwordKinds(password: string): number {
  const letters = /\p{L}/u.test(password);
  const digits = /\p{Nd}/u.test(password);
  // Combining marks belong to the letter they sit on (an accent typed in decomposed form, a Tibetan
  // vowel sign): counting them as "other" would let a letters-only password pass as two kinds.
  const other = /[^\p{L}\p{M}\p{Nd}]/u.test(password);
  return Number(letters) + Number(digits) + Number(other);
}

export type PasswordProblem = 'required' | 'length' | 'tooSimple';

export function checkPassword(password: string): PasswordProblem | null {
  if (password.length === 0) return 'required';
  const length = [...password].length;
  if (length < PASSWORD_MIN || length > PASSWORD_MAX) return 'length';
  if (passwordKinds(password) < 2) return 'tooSimple';
  return null;
}

export function isStrongPassword(password: string): boolean {
  return checkPassword(password) === null;
}
