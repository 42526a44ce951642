import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { UPLOAD_CODE_TTL_HOURS, type UploadCodeCreated } from '../../../../contract/uploads';
import { errorText } from '@/lib/errorText';
import { formatDateTime } from '@/lib/format';
import { isSessionEndingError } from '@/lib/http';
import { toasts } from '@/lib/toasts';
import { Alert } from '@/ui/Alert';
import { CopyButton } from '@/ui/CopyButton';
import { QrCode } from '@/ui/QrCode';
import { attachmentApi, codeUrl } from './api';
import { ttlHours } from './rules';

const expiryText = (seconds: number) => formatDateTime(new Date(seconds * 1000).toISOString());

// The server keeps no list of codes to show again: the last one made for a report stays here while the app is open,
// so looking at another side tab (only the shown one is mounted) does not lose it.
const lastMade = new Map<number, UploadCodeCreated>();
const remembered = (reportId: number) => {
  const made = lastMade.get(reportId);
  return made && made.expires * 1000 > Date.now() ? made : null;
};

/**
 * An upload code for someone without an account (attachment_create): they open the link or scan the QR code and
 * add files to this report until it expires.
 */
export function UploadCodeSection({ bucketId, reportId }: { bucketId: number; reportId: number }) {
  const { t } = useTranslation();
  const [hours, setHours] = useState(String(UPLOAD_CODE_TTL_HOURS.default));
  const [hoursError, setHoursError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [made, setMade] = useState<UploadCodeCreated | null>(() => remembered(reportId));
  const focusNew = useRef(false);
  const copy = useRef<HTMLButtonElement>(null);
  const ids = useId();

  // A new code comes with the focus on its copy button: Enter copies the link.
  useEffect(() => {
    if (!focusNew.current) return;
    focusNew.current = false;
    copy.current?.focus();
  }, [made]);

  async function create(event: FormEvent) {
    event.preventDefault();
    const ttl = ttlHours(hours);
    if (ttl === null) {
      setHoursError(t('report.attachments.hoursRange', { min: UPLOAD_CODE_TTL_HOURS.min, max: UPLOAD_CODE_TTL_HOURS.max }));
      return;
    }
    setHoursError(null);
    setFailure(null);
    setCreating(true);
    try {
      const answer = await attachmentApi.createCode(bucketId, reportId, ttl);
      lastMade.set(reportId, answer);
      focusNew.current = true;
      setMade(answer);
      toasts.show({ message: t('report.attachments.codeCreated', { time: expiryText(answer.expires) }), kind: 'success' });
    } catch (error) {
      if (!isSessionEndingError(error)) setFailure(errorText(t, error));
    } finally {
      setCreating(false);
    }
  }

  const url = made ? codeUrl(made) : '';
  return (
    <section aria-labelledby={`${ids}-title`} className="flex flex-col gap-2 border-t border-line pt-3" data-testid="upload-code">
      <h4 id={`${ids}-title`} className="text-xs font-semibold tracking-wide text-fg-muted uppercase">{t('report.attachments.codeTitle')}</h4>
      <p className="text-xs text-fg-muted">{t('report.attachments.codeIntro')}</p>
      <form onSubmit={(e) => void create(e)} noValidate className="flex flex-col gap-1">
        <div className="flex flex-wrap items-end gap-2">
          <label className="flex flex-col gap-1 text-xs font-medium text-fg-muted">
            {t('report.attachments.validity')}
            <span className="flex items-center gap-1.5">
              <input
                type="number"
                name="ttlHours"
                inputMode="numeric"
                min={UPLOAD_CODE_TTL_HOURS.min}
                max={UPLOAD_CODE_TTL_HOURS.max}
                step={1}
                value={hours}
                onChange={(e) => setHours(e.target.value)}
                aria-invalid={hoursError ? true : undefined}
                aria-describedby={`${ids}-hours`}
                className="input h-8 w-20 text-[13px] tabular-nums"
              />
              <span className="font-normal text-fg">{t('report.attachments.hours')}</span>
            </span>
          </label>
          <button type="submit" className="btn h-8" disabled={creating}>
            {creating ? t('report.attachments.creating') : t('report.attachments.createCode')}
          </button>
        </div>
        <p id={`${ids}-hours`} aria-live="polite" className={`text-xs ${hoursError ? 'text-danger' : 'text-fg-subtle'}`}>
          {hoursError ?? t('report.attachments.hoursHint', { min: UPLOAD_CODE_TTL_HOURS.min, max: UPLOAD_CODE_TTL_HOURS.max })}
        </p>
      </form>
      {failure && <Alert>{failure}</Alert>}
      {made && (
        <div className="flex flex-col gap-2 rounded-md border border-accent/50 bg-accent-soft/40 p-2" data-testid="upload-code-made">
          <div className="flex items-center gap-2">
            <span className="text-xs text-fg-muted">{t('report.attachments.code')}</span>
            <code className="min-w-0 flex-1 truncate font-mono text-xs" data-testid="upload-code-value">{made.code}</code>
            <CopyButton ref={copy} text={url} label={t('report.attachments.copyLink')} compact />
          </div>
          <input readOnly value={url} aria-label={t('report.attachments.link')} onFocus={(e) => e.currentTarget.select()}
            className="input h-7 w-full font-mono text-[11px]" data-testid="upload-code-url" />
          <div className="flex flex-col items-center gap-1">
            <QrCode text={url} label={t('report.attachments.qr')} size={148} />
            <p className="text-xs tabular-nums" data-testid="upload-code-expiry">{t('report.attachments.until', { time: expiryText(made.expires) })}</p>
            <p className="text-center text-xs text-fg-subtle">{t('report.attachments.codeOnce')}</p>
          </div>
        </div>
      )}
    </section>
  );
}
