import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { normalizeMobile } from '../../../contract/accounts';
import { useSession } from '@/lib/session';
import { errorText } from '@/lib/errorText';
import { isHttpError, isSessionEndingError } from '@/lib/http';
import { toasts } from '@/lib/toasts';
import { Alert } from '@/ui/Alert';
import { TextField } from '@/ui/TextField';
import { profileUpdated, settingsApi } from './api';
import { SectionHeading, SettingsFrame } from './SettingsFrame';

/** Seconds left until `until` (ms), re-rendered each second while above zero. */
function useCountdown(until: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until <= now) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [until, now]);
  return Math.max(0, Math.ceil((until - now) / 1000));
}

/**
 * settings/mobile: binds a mobile number by an SMS code (POST accounts/me/code/bind-mobile, then
 * accounts/me/mobile/bind). The bound number also receives password-reset codes.
 */
export default function MobilePage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const [bound, setBound] = useState<string | null | undefined>(undefined);
  const [mobile, setMobile] = useState('');
  const [code, setCode] = useState('');
  const [sentTo, setSentTo] = useState<{ mobile: string; masked: string } | null>(null);
  const [resendAt, setResendAt] = useState(0);
  const wait = useCountdown(resendAt);
  const [problem, setProblem] = useState<{ field: 'mobile' | 'code'; text: string } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState<'send' | 'bind' | null>(null);
  const codeInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!user) return;
    const controller = new AbortController();
    settingsApi.mobileOf(user.id, controller.signal).then((r) => setBound(r.mobile), () => undefined);
    return () => controller.abort();
  }, [user?.id, user?.mobile]); // eslint-disable-line react-hooks/exhaustive-deps -- again after a bind changes the number

  // A code was sent: the code field (enabled by this render) takes the focus.
  useEffect(() => {
    if (sentTo) codeInput.current?.focus();
  }, [sentTo]);

  function fail(error: unknown) {
    if (isSessionEndingError(error)) return;
    if (isHttpError(error) && error.code === 'TooManyAttempts') {
      const after = Number((error.details as { retryAfter?: number } | undefined)?.retryAfter ?? 60);
      setResendAt(Date.now() + after * 1000);
    }
    setFailure(errorText(t, error));
  }

  async function sendCode() {
    if (busy || wait > 0) return;
    const normal = normalizeMobile(mobile);
    setFailure(null);
    if (!normal) return setProblem({ field: 'mobile', text: t('settings.mobile.invalid') });
    setProblem(null);
    setBusy('send');
    try {
      const sent = await settingsApi.sendBindCode(normal);
      setSentTo({ mobile: normal, masked: sent.mobile });
      setResendAt(Date.now() + sent.resendAfter * 1000);
      setCode('');
    } catch (error) {
      fail(error);
    } finally {
      setBusy(null);
    }
  }

  async function bind(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (!sentTo) return void sendCode();
    setFailure(null);
    if (!/^\d{6}$/.test(code.trim())) return setProblem({ field: 'code', text: t('settings.mobile.codeFormat') });
    setProblem(null);
    setBusy('bind');
    try {
      const updated = await settingsApi.bindMobile(sentTo.mobile, code.trim());
      profileUpdated(updated);
      setSentTo(null);
      setMobile('');
      setCode('');
      toasts.show({ message: t('settings.mobile.bound'), kind: 'success' });
    } catch (error) {
      fail(error);
    } finally {
      setBusy(null);
    }
  }

  return (
    <SettingsFrame>
      <section aria-labelledby="mobile-title" className="max-w-xl">
        <SectionHeading id="mobile-title" title={t('settings.mobile.title')} />
        <div className="mb-4 flex items-baseline gap-3 rounded-lg border border-line bg-surface p-5 text-sm">
          <span className="text-fg-muted">{t('settings.mobile.current')}</span>
          <span className="font-medium tabular-nums" data-testid="mobile-current">
            {bound === undefined ? '…' : bound ?? t('settings.mobile.none')}
          </span>
        </div>
        <form onSubmit={bind} noValidate className="rounded-lg border border-line bg-surface p-5">
          <div className="grid grid-cols-1 gap-x-4 sm:grid-cols-[1fr_auto] sm:items-start">
            <TextField label={t('settings.mobile.number')} name="mobile" type="tel" inputMode="tel" autoComplete="tel" value={mobile}
              onChange={(event) => setMobile(event.target.value)} maxLength={32}
              error={problem?.field === 'mobile' ? problem.text : null} />
            <button type="button" className="btn mt-0 sm:mt-[1.45rem]" onClick={() => void sendCode()} disabled={busy !== null || wait > 0}>
              {wait > 0 ? t('settings.mobile.resendIn', { seconds: wait }) : sentTo ? t('settings.mobile.resend') : t('settings.mobile.sendCode')}
            </button>
          </div>
          <p className="mb-3 text-xs text-fg-muted" aria-live="polite">
            {sentTo ? t('settings.mobile.sent', { mobile: sentTo.masked }) : t('settings.mobile.rule')}
          </p>
          <TextField ref={codeInput} label={t('settings.mobile.code')} name="code" inputMode="numeric" autoComplete="one-time-code" value={code}
            onChange={(event) => setCode(event.target.value)} maxLength={6} disabled={!sentTo}
            error={problem?.field === 'code' ? problem.text : null} />
          {failure && <div className="mb-3"><Alert>{failure}</Alert></div>}
          <div className="flex justify-end">
            <button type="submit" className="btn btn-primary" disabled={busy !== null || !sentTo}>
              {busy === 'bind' ? t('common.saving') : t('settings.mobile.bind')}
            </button>
          </div>
        </form>
      </section>
    </SettingsFrame>
  );
}
