import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '@/lib/errorText';
import { isSessionEndingError } from '@/lib/http';
import { Alert } from '@/ui/Alert';
import { EmptyState } from '@/ui/LoadState';

/**
 * The scrolling body of a keyboard list page: the failure, or the empty line once an answer says there is nothing,
 * or the table; under it the line of the page's keys.
 */
export function ListBody({ error, empty, emptyTestId, keys, children }: {
  error: unknown; empty: string | null; emptyTestId: string; keys: string; children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="min-h-0 flex-1 overflow-auto bg-surface">
      {error && !isSessionEndingError(error) ? (
        <div className="p-4"><Alert>{errorText(t, error)}</Alert></div>
      ) : empty !== null ? (
        <EmptyState testId={emptyTestId}>{empty}</EmptyState>
      ) : children}
      <p className="px-3 py-2 text-xs text-fg-subtle">{keys}</p>
    </div>
  );
}
