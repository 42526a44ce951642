import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MAX, PASSWORD_MIN } from '../../../../contract/constants';
import type { GroupMember } from '../../../../contract/groups';
import { isHttpError } from '@/lib/http';
import { Dialog } from '@/ui/Dialog';
import { TextField } from '@/ui/TextField';
import { groupPartsApi } from './groupApi';
import { ErrorNote, failedFields } from './settings/parts';
import { useWrite } from '../ui/useWrite';

type Field = 'username' | 'name' | 'password' | 'accessLevel';

/** The fields a refusal is about: those a ParamsError names, the username when taken, the password when too simple. */
function fieldsOf(error: unknown): Set<string> {
  const named = new Set(failedFields(error));
  if (isHttpError(error) && error.code === 'UsernameTaken') named.add('username');
  if (isHttpError(error) && error.code === 'PasswordTooSimple') named.add('password');
  return named;
}

/**
 * A new account made straight into the group (areas §8): username, name, first password and the group level. The
 * server checks the rules (ParamsError, UsernameTaken, PasswordTooSimple); its catalogue message shows above the
 * buttons and the fields it names are marked, with their rule in red under them.
 */
export function CreateAccountDialog({ groupId, onClose, onCreated }: { groupId: number; onClose: () => void; onCreated: (member: GroupMember) => void }) {
  const { t } = useTranslation();
  const ids = useId();
  const [values, setValues] = useState({ username: '', name: '', password: '' });
  const [accessLevel, setAccessLevel] = useState<0 | 1>(0);
  const { busy, error, run } = useWrite({ errors: 'inline' });
  const bad = fieldsOf(error);
  const labels: Record<Field, string> = {
    username: t('admin.groupParts.account.username'), name: t('admin.groupParts.account.name'),
    password: t('admin.groupParts.account.password'), accessLevel: t('admin.groupParts.account.level'),
  };
  const hints: Record<Exclude<Field, 'accessLevel'>, string> = {
    username: t('admin.groupParts.account.usernameRule'), name: t('admin.groupParts.account.nameRule'),
    password: t('admin.groupParts.account.passwordRule', { min: PASSWORD_MIN, max: PASSWORD_MAX }),
  };
  const set = (field: keyof typeof values) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!values.username.trim() || !values.name.trim() || !values.password) return;
    const answer: { member?: GroupMember } = {};
    const input = { username: values.username.trim(), name: values.name.trim(), password: values.password, accessLevel };
    if (await run(async () => { answer.member = await groupPartsApi.createAccount(groupId, input); }, t('admin.groupParts.account.created', { username: input.username })) && answer.member) {
      onCreated(answer.member);
    }
  };
  const field = (name: Exclude<Field, 'accessLevel'>, extra: { type?: string; autoFocus?: boolean; autoComplete: string; maxLength: number; mono?: boolean }) => (
    <TextField label={labels[name]} name={name} value={values[name]} onChange={set(name)} type={extra.type ?? 'text'} autoFocus={extra.autoFocus}
      autoComplete={extra.autoComplete} maxLength={extra.maxLength} className={extra.mono ? '[&_input]:font-mono' : undefined}
      hint={bad.has(name) ? undefined : hints[name]} error={bad.has(name) ? hints[name] : undefined} />
  );

  return (
    <Dialog open title={t('admin.groupParts.account.title')} onCancel={busy ? undefined : onClose} width={460}>
      <form onSubmit={submit} className="flex flex-col gap-1" data-testid="account-create-form" autoComplete="off">
        {field('username', { autoFocus: true, autoComplete: 'off', maxLength: 32, mono: true })}
        {field('name', { autoComplete: 'off', maxLength: 64 })}
        {field('password', { type: 'password', autoComplete: 'new-password', maxLength: 128 })}
        <div>
          <label htmlFor={`${ids}-level`} className="mb-1 block text-[13px] font-medium text-fg-muted">{labels.accessLevel}</label>
          <select id={`${ids}-level`} name="accessLevel" className="input" value={accessLevel} aria-invalid={bad.has('accessLevel') || undefined}
            onChange={(e) => setAccessLevel(e.target.value === '1' ? 1 : 0)}>
            <option value={0}>{t('admin.level.groupMember')}</option>
            <option value={1}>{t('admin.level.groupAdmin')}</option>
          </select>
        </div>
        <ErrorNote error={error} labels={labels} testId="account-create-error" className="mt-3" />
        <div className="mt-4 flex justify-end gap-2">
          <button type="button" className="btn" onClick={onClose} disabled={busy}>{t('common.cancel')}</button>
          <button type="submit" className="btn btn-primary" disabled={busy || !values.username.trim() || !values.name.trim() || !values.password}>
            {t('admin.groupParts.account.submit')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
