import type { TFunction } from 'i18next';
import { errorText } from '@/lib/errorText';
import type { Refusal } from './rules';

export type UploadFailure = { refusal: Refusal } | { error: unknown };

/** Why a file did not get through, in the catalogue's words where the server would have said the same. */
export function failureText(t: TFunction, failure: UploadFailure | null, maxCount: number | null): string {
  if (!failure) return t('errors.OperationFailed');
  if ('error' in failure) return errorText(t, failure.error);
  if (failure.refusal === 'tooMany') return t('report.attachments.tooMany', { max: maxCount ?? 0 });
  return t(`errors.${failure.refusal}`);
}
