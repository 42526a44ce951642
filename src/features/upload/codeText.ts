import type { TFunction } from 'i18next';
import { errorText } from '@/lib/errorText';
import { HttpError, type HttpErrorCode } from '@/lib/http';

/** The catalogue text of a failure code the machine kept (it keeps codes, not errors). */
export function codeText(t: TFunction, code: string | null | undefined): string {
  return errorText(t, new HttpError((code ?? 'UnknownError') as HttpErrorCode, 0, ''));
}
