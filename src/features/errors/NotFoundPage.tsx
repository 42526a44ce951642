import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { ErrorPage } from './ErrorPage';

export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <ErrorPage code="404" title={t('pages.notFound.title')} body={t('pages.notFound.body')}>
      <Link href="/" className="btn btn-primary">{t('pages.notFound.home')}</Link>
    </ErrorPage>
  );
}
