import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { ErrorPage } from './ErrorPage';

export default function UnauthorizedPage() {
  const { t } = useTranslation();
  return (
    <ErrorPage code="401" title={t('pages.unauthorized.title')} body={t('pages.unauthorized.body')}>
      <Link href="/" className="btn btn-primary">{t('pages.unauthorized.home')}</Link>
    </ErrorPage>
  );
}
