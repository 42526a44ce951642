import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FILM_TTL_DAYS, type FilmShare, type FilmShareItem } from '../../../contract/shares';
import { errorText } from '@/lib/errorText';
import { http, isSessionEndingError } from '@/lib/http';
import { toasts } from '@/lib/toasts';
import { wholeNumberWithin } from '@/lib/validation';
import { ConfirmDialog } from '@/ui/ConfirmDialog';
import { CopyButton } from '@/ui/CopyButton';
import { LinkStateBadge, linkState } from '@/ui/LinkStateBadge';
import { Spinner } from '@/ui/Spinner';
import { formatDateTime } from '@/lib/format';

const expiryText = (seconds: number) => formatDateTime(new Date(seconds * 1000).toISOString());
/** The page the envelope points to: this site and the path the server gives (/sf/{link}). */
const filmUrl = (film: Pick<FilmShare, 'path'>) => `${window.location.origin}${film.path}`;
/** Shown films that are no longer active: the newest few, the rest stay on the server. */
const OLD_FILMS_SHOWN = 3;

type Loaded = { state: 'loading' } | { state: 'ready'; films: FilmShareItem[]; at: number } | { state: 'error'; error: unknown };

/**
 * Electronic film (core §2 /sf/{link}): a link and an 8-character code printed on the film envelope; the page
 * asks for the code. For accounts with exam_get in the exam's organisation. The active films are listed with
 * their code, so an envelope can be printed again; a film can be revoked.
 */
export function FilmSharePanel({ examId }: { examId: number }) {
  const { t } = useTranslation();
  const ids = useId();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [round, setRound] = useState(0);
  const [days, setDays] = useState(String(FILM_TTL_DAYS.default));
  const [daysError, setDaysError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<{ film: FilmShareItem; busy: boolean } | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    http.get<FilmShareItem[]>(`exams/${examId}/film-shares`, { signal: controller.signal }).then(
      (films) => setLoaded({ state: 'ready', films, at: Date.now() }),
      (error: unknown) => !controller.signal.aborted && !isSessionEndingError(error) && setLoaded({ state: 'error', error }),
    );
    return () => controller.abort();
  }, [examId, round]);

  async function create(event: FormEvent) {
    event.preventDefault();
    const ttl = wholeNumberWithin(days, FILM_TTL_DAYS);
    if (ttl === null) {
      setDaysError(t('examDetail.film.daysRange', { min: FILM_TTL_DAYS.min, max: FILM_TTL_DAYS.max }));
      return;
    }
    setDaysError(null);
    setFailure(null);
    setBusy(true);
    try {
      const made = await http.post<FilmShare>('film-share/share', { examId, ttlDays: ttl });
      const item: FilmShareItem = { ...made, created: new Date().toISOString(), revoked: false };
      setLoaded((current) => ({ state: 'ready', films: [item, ...(current.state === 'ready' ? current.films : [])], at: Date.now() }));
      toasts.show({ message: t('examDetail.film.created'), kind: 'success' });
    } catch (error) {
      if (!isSessionEndingError(error)) setFailure(errorText(t, error));
    } finally {
      setBusy(false);
    }
  }

  async function revoke() {
    if (!revoking) return;
    const { film } = revoking;
    setRevoking({ film, busy: true });
    try {
      await http.post<void>(`film-share/${encodeURIComponent(film.link)}/revoke`, {});
      setLoaded((current) => current.state === 'ready'
        ? { ...current, films: current.films.map((f) => (f.link === film.link ? { ...f, revoked: true } : f)) }
        : current);
      toasts.show({ message: t('examDetail.film.revoked'), kind: 'success' });
    } catch (error) {
      if (!isSessionEndingError(error)) setFailure(errorText(t, error));
    } finally {
      setRevoking(null);
    }
  }

  const films = loaded.state === 'ready' ? loaded.films : [];
  const active = loaded.state === 'ready' ? films.filter((f) => linkState(f, loaded.at) === 'active') : [];
  const old = loaded.state === 'ready' ? films.filter((f) => linkState(f, loaded.at) !== 'active').slice(0, OLD_FILMS_SHOWN) : [];

  return (
    <div className="flex flex-col gap-2 text-[13px]" data-testid="film-share">
      <form onSubmit={(e) => void create(e)} noValidate className="flex flex-wrap items-center gap-2">
        <button type="submit" className="btn btn-primary h-7 text-[13px]" disabled={busy}>
          {busy ? t('examDetail.film.creating') : t('examDetail.film.create')}
        </button>
        <label className="flex items-center gap-1.5 text-xs text-fg-muted">
          {t('examDetail.film.validity')}
          <input type="number" name="filmDays" inputMode="numeric" min={FILM_TTL_DAYS.min} max={FILM_TTL_DAYS.max} step={1} value={days}
            onChange={(e) => setDays(e.target.value)} aria-invalid={daysError ? true : undefined} aria-describedby={daysError ? `${ids}-days` : undefined}
            className="input h-7 w-16 text-[13px] tabular-nums" />
          {t('examDetail.film.days')}
        </label>
      </form>
      {daysError && <p id={`${ids}-days`} role="alert" className="text-xs text-danger">{daysError}</p>}
      {failure && <p role="alert" className="text-xs text-danger">{failure}</p>}

      {loaded.state === 'loading' && <Spinner label={t('common.loading')} />}
      {loaded.state === 'error' && (
        <p className="text-xs text-danger">
          {errorText(t, loaded.error)} <button type="button" className="link" onClick={() => setRound((n) => n + 1)}>{t('common.retry')}</button>
        </p>
      )}
      {loaded.state === 'ready' && films.length === 0 && <p className="text-xs text-fg-muted">{t('examDetail.film.none')}</p>}

      {active.map((film) => (
        <div key={film.link} data-film-link={film.link} data-state="active" className="rounded-md border border-line bg-sunken/60 p-2">
          <div className="flex items-center gap-2">
            <span className="text-xs text-fg-muted">{t('examDetail.film.code')}</span>
            <span data-testid="film-code" className="font-mono text-lg leading-6 font-semibold tracking-[0.25em] text-fg select-all">{film.code}</span>
            <CopyButton text={film.code} label={t('examDetail.film.copyCode')} compact />
            <span className="ml-auto text-xs text-fg-muted tabular-nums">{t('examDetail.film.until', { time: expiryText(film.expires) })}</span>
          </div>
          <div className="mt-1.5 flex items-center gap-1">
            <input readOnly value={filmUrl(film)} aria-label={t('examDetail.film.url')} onFocus={(e) => e.currentTarget.select()}
              className="input h-7 min-w-0 flex-1 font-mono text-[11px]" data-testid="film-url" />
            <CopyButton text={filmUrl(film)} label={t('examDetail.film.copyUrl')} compact />
            <button type="button" className="btn btn-ghost h-7 px-1.5 text-xs text-danger" onClick={() => setRevoking({ film, busy: false })}>
              {t('examDetail.film.revoke')}
            </button>
          </div>
        </div>
      ))}

      {old.length > 0 && (
        <ul className="flex flex-col gap-0.5 text-xs text-fg-muted">
          {old.map((film) => {
            const state = linkState(film, loaded.state === 'ready' ? loaded.at : 0);
            return (
              <li key={film.link} data-film-link={film.link} data-state={state} className="flex items-center gap-2">
                <LinkStateBadge state={state} />
                <span className="font-mono tracking-wider line-through decoration-fg-subtle/60">{film.code}</span>
                <span className="ml-auto tabular-nums">
                  {state === 'revoked' ? t('examDetail.film.createdAt', { time: formatDateTime(film.created) }) : t('examDetail.film.expiredAt', { time: expiryText(film.expires) })}
                </span>
              </li>
            );
          })}
        </ul>
      )}

      <ConfirmDialog
        open={revoking !== null}
        title={t('examDetail.film.revokeTitle')}
        confirmLabel={t('examDetail.film.revoke')}
        busy={revoking?.busy ?? false}
        onConfirm={() => void revoke()}
        onCancel={() => setRevoking(null)}
      >
        <p>{t('examDetail.film.revokeBody', { code: revoking?.film.code ?? '' })}</p>
      </ConfirmDialog>
    </div>
  );
}
