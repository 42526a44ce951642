import type { ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPager } from '@/ui/ListPager';

/** Where a list stands (range, pages, refresh) and its export; the order list and the ledger share it. */
export function Pager(props: Omit<ComponentProps<typeof ListPager>, 'words' | 'className'>) {
  const { t } = useTranslation();
  return (
    <ListPager {...props} words={{
      range: (range) => t('payments.orders.range', range),
      previous: t('payments.orders.commands.previousPage'),
      next: t('payments.orders.commands.nextPage'),
      refresh: t('payments.orders.commands.refresh'),
      refreshKey: 'Shift+R',
      exportLabel: t('payments.orders.export'),
      exportKey: 'E',
    }} />
  );
}
