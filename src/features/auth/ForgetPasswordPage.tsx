import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useDomain } from '@/lib/session/domain';
import { AuthLayout } from './AuthLayout';

/**
 * No e-mail or SMS reset here (see docs/decisions.md): a group administrator resets the password
 * and the user changes it after signing in. The page says so and names whom to contact.
 */
export default function ForgetPasswordPage() {
  const { t } = useTranslation();
  const domain = useDomain();
  const contact = [domain?.company, domain?.website].filter(Boolean).join(' · ');
  return (
    <AuthLayout title={t('auth.forget.title')}>
      <div className="flex flex-col gap-3 text-sm">
        <p>{t('auth.forget.body')}</p>
        <p className="text-fg-muted">{t('auth.forget.afterReset')}</p>
        {contact && (
          <p className="rounded-md bg-sunken px-3 py-2 text-fg-muted">
            <span className="mr-2 font-medium text-fg">{t('auth.forget.contact')}</span>
            {contact}
          </p>
        )}
        <Link href="/login" className="btn btn-primary mt-2 w-full" autoFocus>
          {t('auth.forget.toLogin')}
        </Link>
      </div>
    </AuthLayout>
  );
}
