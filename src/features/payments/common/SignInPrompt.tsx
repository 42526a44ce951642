import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { loginUrl } from '@/lib/session';

/**
 * The order and charge pages are open addresses (areas §2: a link handed over, a phone) but their calls need the
 * session: signed out, they ask to sign in and come back here.
 */
export function SignInPrompt() {
  const { t } = useTranslation();
  const back = `${window.location.pathname}${window.location.search}`;
  return (
    <div className="mx-auto mt-16 flex w-full max-w-sm flex-col gap-3 rounded-md border border-line bg-surface p-5" data-testid="payments-sign-in">
      <h1 className="text-base font-semibold">{t('payments.common.signIn.title')}</h1>
      <p className="text-[13px] text-fg-muted">{t('payments.common.signIn.text')}</p>
      <Link href={loginUrl(back)} className="btn btn-primary self-start">{t('payments.common.signIn.button')}</Link>
    </div>
  );
}
