import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PATHOLOGY_PLACEHOLDERS, pathologyTemplateProblem } from '../../../contract/pathology';
import { errorText } from '@/lib/errorText';
import { http, isSessionEndingError } from '@/lib/http';
import { refreshSession } from '@/lib/session';
import { toasts } from '@/lib/toasts';
import { TextField } from '@/ui/TextField';

/**
 * A group administrator's setting of the group's pathology system (core §3 Group.pathologyUrl): an http(s) address or
 * template; empty switches the navbar entry and the exam command off. Checked here for comfort; the server decides.
 */
export function PathologySetting({ groupId, value }: { groupId: number; value: string | null }) {
  const { t } = useTranslation();
  const [text, setText] = useState(value ?? '');
  const [busy, setBusy] = useState(false);
  const trimmed = text.trim();
  const problem = trimmed === '' ? null : pathologyTemplateProblem(trimmed);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (problem || busy) return;
    setBusy(true);
    try {
      await http.patch(`groups/${groupId}`, { pathologyUrl: trimmed === '' ? null : trimmed });
      toasts.show({ message: t('pathology.setting.saved'), kind: 'success', duration: 2500 });
      refreshSession({ force: true });
    } catch (error) {
      if (!isSessionEndingError(error)) toasts.show({ message: errorText(t, error), kind: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} className="flex max-w-2xl items-start gap-2" data-testid="pathology-setting">
      <TextField className="flex-1" name="pathologyUrl" type="url" inputMode="url" label={t('pathology.setting.label')} value={text}
        onChange={(event) => setText(event.target.value)} placeholder="https://lis.example/case?acc={accessionNumber}"
        error={problem ? t('pathology.setting.invalid') : null}
        hint={t('pathology.setting.hint', { placeholders: PATHOLOGY_PLACEHOLDERS.map((p) => `{${p}}`).join(' ') })} />
      <button type="submit" className="btn mt-6" disabled={busy || problem !== null}>{busy ? t('common.saving') : t('common.save')}</button>
    </form>
  );
}
