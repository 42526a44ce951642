import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '@/lib/errorText';
import { isSessionEndingError } from '@/lib/http';
import { confirmed, firstProblem, password as passwordRule, required, type Problem } from '@/lib/validation';

export type PasswordField = 'oldPassword' | 'newPassword' | 'confirm';
export type PasswordValues = Record<PasswordField, string>;
export const NO_PASSWORDS: PasswordValues = { oldPassword: '', newPassword: '', confirm: '' };

/** Core §5's rule for a new password: the old one given, the new one compliant and not the old, typed twice alike. */
export function passwordProblems(values: PasswordValues): Record<PasswordField, Problem | null> {
  return {
    oldPassword: required('oldPassword', values.oldPassword),
    newPassword: firstProblem(passwordRule('newPassword', values.newPassword),
      values.newPassword && values.newPassword === values.oldPassword ? { rule: 'passwordSameAsOld' } : null),
    confirm: firstProblem(required('newPassword', values.confirm), confirmed('newPassword', values.newPassword, values.confirm)),
  };
}

/**
 * The old / new / confirm form of the settings page and of the sign-in's forced change: its fields, the rule's
 * problems shown under them, one send at a time and the refusal in words. `quietSessionEnd`: a signed-in screen says
 * nothing when the session ends (the sign-in takes over); the public page has no session to end.
 */
export function usePasswordForm<Extra extends string = never>({ quietSessionEnd }: { quietSessionEnd: boolean }) {
  const { t } = useTranslation();
  const [form, setForm] = useState(NO_PASSWORDS);
  const [problems, setProblems] = useState<Partial<Record<PasswordField | Extra, Problem | null>>>({});
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const set = (field: PasswordField) => (event: { target: { value: string } }) => setForm((f) => ({ ...f, [field]: event.target.value }));

  /** Checks the rule (and the screen's own fields, first), then sends; `done` runs after a send that succeeded. */
  async function submit(event: FormEvent, send: (values: PasswordValues) => Promise<void>, done: () => void,
    extra?: Record<Extra, Problem | null>) {
    event.preventDefault();
    if (busy) return;
    const found = { ...extra, ...passwordProblems(form) } as Record<PasswordField | Extra, Problem | null>;
    setProblems(found);
    if (Object.values(found).some(Boolean)) return;
    setBusy(true);
    setFailure(null);
    try {
      await send(form);
      done();
    } catch (error) {
      if (!quietSessionEnd || !isSessionEndingError(error)) setFailure(errorText(t, error));
    } finally {
      setBusy(false);
    }
  }
  return { form, set, problems, busy, failure, submit, reset: () => setForm(NO_PASSWORDS) };
}
