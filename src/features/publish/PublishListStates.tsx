import { useTranslation } from 'react-i18next';

/** What the publishing list shows instead of its table: nothing published yet. */
export function Empty() {
  const { t } = useTranslation();
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-1.5 px-6 py-16 text-center" data-testid="publish-empty">
      <p className="text-sm font-medium">{t('publish.list.empty')}</p>
      <p className="max-w-md text-[13px] text-fg-muted">{t('publish.list.emptyHint')}</p>
    </div>
  );
}
