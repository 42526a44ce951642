import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '@/ui/Dialog';
import { sessionActor } from './instance';
import { useSessionSelector } from './useSession';

/**
 * Core §8 "Login expired". A normal login asks for the password again and the user stays where
 * they were; a scan login warns that unsaved edits will be lost and goes to the login page.
 */
export function ExpiredModal() {
  const { t } = useTranslation();
  const open = useSessionSelector((s) => s.matches('expired') || s.matches('reLogin'));
  const scan = useSessionSelector((s) => s.matches({ expired: 'scan' }));
  return (
    <Dialog open={open} title={t('session.expired.title')}>
      {scan ? <ScanExpired /> : <PasswordAgain />}
    </Dialog>
  );
}

function ScanExpired() {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-fg-muted">{t('session.expired.scanHint')}</p>
      <div className="flex justify-end">
        <button type="button" className="btn btn-primary" onClick={() => sessionActor().send({ type: 'ACKNOWLEDGE' })} autoFocus>
          {t('session.expired.toLogin')}
        </button>
      </div>
    </div>
  );
}

/** Mounted only while the dialog is open, so a typed password never outlives it. */
function PasswordAgain() {
  const { t } = useTranslation();
  const verifying = useSessionSelector((s) => s.matches('reLogin'));
  const username = useSessionSelector((s) => s.context.user?.username ?? '');
  const [password, setPassword] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const send = (event: Parameters<ReturnType<typeof sessionActor>['send']>[0]) => sessionActor().send(event);
  return (
    <form
      className="flex flex-col gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        if (verifying) return;
        send({ type: 'RELOGIN', password });
        input.current?.select();
      }}
    >
      <p className="text-sm text-fg-muted">{t('session.expired.hint')}</p>
      <div className="grid grid-cols-[auto_1fr] items-center gap-x-3 gap-y-2 text-sm">
        <span className="text-fg-muted">{t('session.expired.account')}</span>
        <span className="font-medium">{username}</span>
        <label htmlFor="relogin-password" className="text-fg-muted">
          {t('session.expired.password')}
        </label>
        <input
          id="relogin-password"
          ref={input}
          type="password"
          className="input"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          autoFocus
        />
      </div>
      <div className="mt-2 flex justify-between gap-2">
        <button type="button" className="btn btn-ghost text-fg-muted" onClick={() => send({ type: 'LOGOUT' })}>
          {t('session.expired.logout')}
        </button>
        <button type="submit" className="btn btn-primary" disabled={verifying}>
          {verifying ? t('session.expired.submitting') : t('session.expired.submit')}
        </button>
      </div>
    </form>
  );
}
