import { useTranslation } from 'react-i18next';
import { errorText } from '@/lib/errorText';
import { isHttpError, isSessionEndingError } from '@/lib/http';
import { Alert } from '@/ui/Alert';

export { HEAD_ROW, ROW, TABLE, TD, TH } from '../../ui/table';
export const CHECKBOX = 'h-4 w-4 shrink-0 accent-[var(--accent)]';

/** The fields a ParamsError names, by their first path segment ("memberIds.0" → "memberIds"). */
export function failedFields(error: unknown): string[] {
  if (!isHttpError(error) || error.code !== 'ParamsError') return [];
  const fields = error.details?.fields;
  if (!Array.isArray(fields)) return [];
  return [...new Set(fields.map((f: unknown) => {
    const path = typeof f === 'object' && f !== null && 'path' in f ? String((f as { path: unknown }).path) : '';
    return path.split('.')[0] ?? '';
  }).filter(Boolean))];
}

/** A refused write: the catalogue message, and for a ParamsError the labels of the fields it names. */
export function ErrorNote({ error, labels = {}, testId, className = 'mt-2' }: { error: unknown; labels?: Record<string, string>; testId?: string; className?: string }) {
  const { t } = useTranslation();
  if (error === null || error === undefined || isSessionEndingError(error)) return null;
  const named = failedFields(error).map((field) => labels[field]).filter((label): label is string => Boolean(label));
  return (
    <div className={className} data-testid={testId}>
      <Alert>{errorText(t, error)}{named.length > 0 && <>{t('admin.groupParts.fieldsColon')}{named.join(t('admin.groupParts.listSeparator'))}</>}</Alert>
    </div>
  );
}
