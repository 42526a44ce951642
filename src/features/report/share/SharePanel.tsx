import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { SHARE_TTL_DAYS, type ShareLink } from '../../../../contract/shares';
import { errorText } from '@/lib/errorText';
import { isSessionEndingError } from '@/lib/http';
import { toasts } from '@/lib/toasts';
import { wholeNumberWithin } from '@/lib/validation';
import { Alert } from '@/ui/Alert';
import { ConfirmDialog } from '@/ui/ConfirmDialog';
import { CopyButton } from '@/ui/CopyButton';
import { QrIcon } from '@/ui/icons';
import { LinkStateBadge, linkState } from '@/ui/LinkStateBadge';
import { QrCode } from '@/ui/QrCode';
import { Spinner } from '@/ui/Spinner';
import { formatDate, formatDateTime } from '@/lib/format';
import { shareApi, shareUrl } from './api';

/** Unix seconds as the workspace writes times. */
const expiryText = (seconds: number) => formatDateTime(new Date(seconds * 1000).toISOString());
/** The list says the day; the minute is in the tooltip. */
const expiryDay = (seconds: number) => formatDate(new Date(seconds * 1000).toISOString());

type Loaded = { state: 'loading' } | { state: 'ready'; links: ShareLink[]; at: number } | { state: 'error'; error: unknown };

/**
 * The report's share links (side tab "Share", palette "Share report…"), for accounts with report_print in the
 * report's organisation. A link shows the report *as approved now* to anyone who has it, without signing in, until
 * it expires or is revoked. The server would make a link for a report that is not approved (its page then says
 * "not final yet"); here a link is made only from an approved report, since nothing else is worth handing out.
 */
export function SharePanel({ reportId, lifecycleStatus, approved }: { reportId: number; lifecycleStatus: string; approved: boolean }) {
  const { t } = useTranslation();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [round, setRound] = useState(0);
  const [days, setDays] = useState(String(SHARE_TTL_DAYS.default));
  const [daysError, setDaysError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<{ link: ShareLink; busy: boolean } | null>(null);
  const copyNew = useRef<HTMLButtonElement>(null);
  const focusNew = useRef(false);
  const ids = useId();

  useEffect(() => {
    const controller = new AbortController();
    shareApi.list(reportId, { signal: controller.signal }).then(
      (links) => setLoaded({ state: 'ready', links, at: Date.now() }),
      (error: unknown) => !controller.signal.aborted && !isSessionEndingError(error) && setLoaded({ state: 'error', error }),
    );
    return () => controller.abort();
  }, [reportId, round]);

  // A new link opens with its QR code and the focus on its copy button: Enter copies it.
  useEffect(() => {
    if (!focusNew.current) return;
    focusNew.current = false;
    copyNew.current?.focus();
  }, [loaded]);

  async function create(event: FormEvent) {
    event.preventDefault();
    const ttl = wholeNumberWithin(days, SHARE_TTL_DAYS);
    if (ttl === null) {
      setDaysError(t('report.share.daysRange', { min: SHARE_TTL_DAYS.min, max: SHARE_TTL_DAYS.max }));
      return;
    }
    setDaysError(null);
    setFailure(null);
    setCreating(true);
    try {
      const made = await shareApi.create(reportId, ttl);
      setLoaded((current) => ({ state: 'ready', links: [made, ...(current.state === 'ready' ? current.links : [])], at: Date.now() }));
      setOpen(made.link);
      focusNew.current = true;
      toasts.show({ message: t('report.share.created', { time: expiryText(made.expires) }), kind: 'success' });
    } catch (error) {
      if (!isSessionEndingError(error)) setFailure(errorText(t, error));
    } finally {
      setCreating(false);
    }
  }

  async function revoke() {
    if (!revoking) return;
    const { link } = revoking;
    setRevoking({ link, busy: true });
    try {
      await shareApi.revoke(reportId, link.link);
      setLoaded((current) => current.state === 'ready'
        ? { ...current, links: current.links.map((l) => (l.link === link.link ? { ...l, revoked: true } : l)) }
        : current);
      setRevoking(null);
      toasts.show({ message: t('report.share.revoked'), kind: 'success' });
    } catch (error) {
      setRevoking(null);
      if (!isSessionEndingError(error)) setFailure(errorText(t, error));
    }
  }

  const links = loaded.state === 'ready' ? loaded.links : [];
  const activeCount = loaded.state === 'ready' ? links.filter((l) => linkState(l, loaded.at) === 'active').length : 0;

  return (
    <div className="flex flex-col gap-3 text-[13px]" data-testid="share-panel">
      <p className="text-xs text-fg-muted">{t('report.share.intro')}</p>
      {approved ? (
        <form onSubmit={(e) => void create(e)} noValidate className="flex flex-col gap-1">
          <div className="flex flex-wrap items-end gap-2">
            <label className="flex flex-col gap-1 text-xs font-medium text-fg-muted">
              {t('report.share.validity')}
              <span className="flex items-center gap-1.5">
                <input
                  type="number"
                  name="ttlDays"
                  inputMode="numeric"
                  min={SHARE_TTL_DAYS.min}
                  max={SHARE_TTL_DAYS.max}
                  step={1}
                  value={days}
                  onChange={(e) => setDays(e.target.value)}
                  aria-invalid={daysError ? true : undefined}
                  aria-describedby={`${ids}-days`}
                  className="input h-8 w-20 text-[13px] tabular-nums"
                  data-share-start
                />
                <span className="font-normal text-fg">{t('report.share.days')}</span>
              </span>
            </label>
            <button type="submit" className="btn btn-primary h-8" disabled={creating}>
              {creating ? t('report.share.creating') : t('report.share.create')}
            </button>
          </div>
          <p id={`${ids}-days`} aria-live="polite" className={`text-xs ${daysError ? 'text-danger' : 'text-fg-subtle'}`}>
            {daysError ?? t('report.share.daysHint', { min: SHARE_TTL_DAYS.min, max: SHARE_TTL_DAYS.max })}
          </p>
        </form>
      ) : (
        <div data-testid="share-not-approved">
          <Alert tone="info">
            {t(lifecycleStatus === 'cancelled' ? 'report.share.recalledOnly' : 'report.share.approvedOnly')}
            {activeCount > 0 && <span className="mt-1 block text-xs text-fg-muted">{t('report.share.linksShowNothing')}</span>}
          </Alert>
        </div>
      )}
      {failure && <Alert>{failure}</Alert>}

      <section aria-labelledby={`${ids}-links`} className="flex flex-col gap-2">
        <h4 id={`${ids}-links`} className="flex items-baseline gap-2 text-xs font-semibold tracking-wide text-fg-muted uppercase">
          {t('report.share.links')}
          {loaded.state === 'ready' && <span className="font-normal tabular-nums">{links.length}</span>}
        </h4>
        {loaded.state === 'loading' && <Spinner label={t('common.loading')} />}
        {loaded.state === 'error' && (
          <div className="flex items-center gap-2">
            <p className="text-danger">{errorText(t, loaded.error)}</p>
            <button type="button" className="link" onClick={() => setRound((n) => n + 1)}>{t('common.retry')}</button>
          </div>
        )}
        {loaded.state === 'ready' && links.length === 0 && <p className="text-fg-muted">{t('report.share.none')}</p>}
        {loaded.state === 'ready' && links.length > 0 && (
          <ul className="flex flex-col gap-2">
            {links.map((link) => {
              const state = linkState(link, loaded.at);
              const url = shareUrl(link);
              const shown = state === 'active' && open === link.link;
              return (
                <li key={link.link} data-share-link={link.link} data-state={state}
                  className={`rounded-md border p-2 ${shown ? 'border-accent/50 bg-accent-soft/40' : 'border-line'}`}>
                  <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                    <LinkStateBadge state={state} />
                    <span className={`min-w-0 truncate text-xs whitespace-nowrap tabular-nums ${state === 'active' ? 'text-fg' : 'text-fg-muted'}`}
                      title={`${t('report.share.createdAt', { time: formatDateTime(link.created) })} · ${t('report.share.until', { time: expiryText(link.expires) })}`}>
                      {state === 'revoked' ? t('report.share.createdAt', { time: formatDate(link.created) })
                        : t(state === 'expired' ? 'report.share.expiredAt' : 'report.share.until', { time: expiryDay(link.expires) })}
                    </span>
                    {state === 'active' && (
                      <span className="ml-auto flex shrink-0 items-center gap-0.5">
                        <CopyButton text={url} label={t('report.share.copy')} compact ref={link.link === open ? copyNew : undefined} />
                        <button type="button" className={`icon-button ${shown ? 'bg-sunken text-fg' : ''}`} aria-expanded={shown} aria-label={t('report.share.showQr')} title={t('report.share.showQr')}
                          onClick={() => setOpen(shown ? null : link.link)}>
                          <QrIcon />
                        </button>
                        <button type="button" className="btn btn-ghost h-7 px-1.5 text-xs text-danger" onClick={() => setRevoking({ link, busy: false })}>
                          {t('report.share.revoke')}
                        </button>
                      </span>
                    )}
                  </div>
                  {shown && (
                    <div className="mt-2 flex flex-col items-center gap-2">
                      <input readOnly value={url} aria-label={t('report.share.url')} onFocus={(e) => e.currentTarget.select()}
                        className="input h-7 w-full font-mono text-[11px]" data-testid="share-url" />
                      <QrCode text={url} label={t('report.share.qr')} size={148} />
                      <p className="text-center text-xs text-fg-subtle">{t('report.share.qrHint')}</p>
                    </div>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </section>

      <ConfirmDialog
        open={revoking !== null}
        title={t('report.share.revokeTitle')}
        confirmLabel={t('report.share.revoke')}
        busy={revoking?.busy ?? false}
        onConfirm={() => void revoke()}
        onCancel={() => setRevoking(null)}
      >
        <p>{t('report.share.revokeBody', { time: revoking ? expiryText(revoking.link.expires) : '' })}</p>
        <p className="mt-1 text-xs text-fg-muted">{t('report.share.revokeHint')}</p>
      </ConfirmDialog>
    </div>
  );
}
