import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FILM_CODE_LENGTH, type FilmView } from '../../../contract/shares';
import { errorText } from '@/lib/errorText';
import { http, isHttpError } from '@/lib/http';
import { Alert } from '@/ui/Alert';
import { TextField } from '@/ui/TextField';

/**
 * The film's code (printed on the envelope) with the link it came from, or with the patient ID when the
 * reader has no link (/efilm/query). Five wrong codes lock a film for 15 minutes on the server.
 */
export function FilmAccessForm({ link, onOpen }: { link: string | null; onOpen: (film: FilmView) => void }) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [patientId, setPatientId] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [problem, setProblem] = useState<{ code?: string; patientId?: string }>({});

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = {
      code: code.trim().length !== FILM_CODE_LENGTH ? t('share.film.codeLength', { count: FILM_CODE_LENGTH }) : undefined,
      patientId: !link && !patientId.trim() ? t('validation.required', { field: t('share.film.patientId') }) : undefined,
    };
    setProblem(found);
    if (found.code || found.patientId) return;
    setBusy(true);
    setFailure(null);
    try {
      onOpen(await http.post<FilmView>('film-share/find-and-verify', link ? { code: code.trim().toUpperCase(), link } : { code: code.trim().toUpperCase(), patientId: patientId.trim() }));
    } catch (error) {
      setFailure(isHttpError(error) && error.status === 404 ? t('share.film.wrong') : errorText(t, error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="mx-auto mt-10 w-full max-w-sm rounded-lg border border-line bg-surface p-6">
      <p className="mb-4 text-sm text-fg-muted">{link ? t('share.film.askCode') : t('share.film.askCodeAndId')}</p>
      {!link && <TextField label={t('share.film.patientId')} name="patientId" value={patientId} maxLength={64} autoFocus onChange={(e) => setPatientId(e.target.value)} error={problem.patientId} />}
      <TextField label={t('share.film.code')} name="code" value={code} maxLength={FILM_CODE_LENGTH} autoFocus={Boolean(link)} autoComplete="off"
        className="[&_input]:font-mono [&_input]:uppercase [&_input]:tracking-widest" onChange={(e) => setCode(e.target.value)} error={problem.code} />
      {failure && <div className="mb-3"><Alert>{failure}</Alert></div>}
      <button type="submit" className="btn btn-primary w-full" disabled={busy}>{t('share.film.open')}</button>
    </form>
  );
}
