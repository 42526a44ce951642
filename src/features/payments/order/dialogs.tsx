import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { Dialog } from '@/ui/Dialog';
import { creditPath } from '../common/paths';

/** The account's password for a credit payment (POST credits/create-token); `again`: the last token lapsed. */
export function PasswordDialog({ amount, again, busy, error, onSubmit, onClose }: {
  amount: string; again: boolean; busy: boolean; error: string | null; onSubmit: (password: string) => void; onClose: () => void;
}) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [tried, setTried] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  const empty = password === '';
  return (
    <Dialog open title={t('payments.order.password.title')} onCancel={busy ? undefined : onClose} width={400}>
      <form data-testid="credit-password" onSubmit={(e) => {
        e.preventDefault();
        setTried(true);
        if (!empty) onSubmit(password);
      }}>
        {again && <p className="mb-2 text-[13px] text-warn" role="status">{t('payments.order.password.again')}</p>}
        <p className="mb-2 text-[13px] text-fg-muted">{t('payments.order.password.text', { amount })}</p>
        <label className="flex flex-col gap-1 text-[12px] text-fg-muted">
          {t('payments.order.password.label')}
          <input ref={input} type="password" autoComplete="current-password" className="input" value={password} aria-invalid={(tried && empty) || Boolean(error)}
            onChange={(e) => setPassword(e.target.value)} data-testid="credit-password-input" />
        </label>
        {((tried && empty) || error) && <p className="mt-1 text-[13px] text-danger" role="alert">{error ?? t('payments.order.password.required')}</p>}
        <div className="mt-4 flex justify-end gap-2">
          <button type="button" className="btn" onClick={onClose} disabled={busy}>{t('common.cancel')}</button>
          <button type="submit" className="btn btn-primary" disabled={busy}>{busy ? t('common.saving') : t('payments.order.password.submit')}</button>
        </div>
      </form>
    </Dialog>
  );
}

/** InsufficientBalance: the balance, what is needed, and the way to the credit page. */
export function RechargeDialog({ balance, amount, onClose }: { balance: string; amount: string; onClose: () => void }) {
  const { t } = useTranslation();
  const link = useRef<HTMLAnchorElement>(null);
  useEffect(() => link.current?.focus(), []);
  return (
    <Dialog open title={t('payments.order.recharge.title')} onCancel={onClose} width={400}>
      <p className="text-[13px]" data-testid="recharge-prompt">{t('payments.order.recharge.text', { balance, amount })}</p>
      <div className="mt-4 flex justify-end gap-2">
        <button type="button" className="btn" onClick={onClose}>{t('common.close')}</button>
        <Link ref={link} href={creditPath} className="btn btn-primary">{t('payments.order.recharge.link')}</Link>
      </div>
    </Dialog>
  );
}
