import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { UploadCodeInfo } from '../../../contract/uploads';
import { errorText } from '@/lib/errorText';
import { Alert } from '@/ui/Alert';
import { Spinner } from '@/ui/Spinner';

/**
 * An upload page by a code, before its form: no code, the code refused, the code's answer on its way, or a code of
 * the other kind; else the form, given what the code is for.
 */
export function CodeGate({ code, info, error, kind, children }: {
  code: string | null;
  info: UploadCodeInfo | null;
  error: unknown;
  kind: UploadCodeInfo['kind'];
  children: (info: UploadCodeInfo, code: string) => ReactNode;
}) {
  const { t } = useTranslation();
  return !code ? (
    <Alert>{t('upload.code.missing')}</Alert>
  ) : error ? (
    <Alert>{errorText(t, error)}</Alert>
  ) : !info ? (
    <Spinner label={t('common.loading')} />
  ) : info.kind !== kind ? (
    <Alert>{t('upload.code.wrongKind')}</Alert>
  ) : children(info, code);
}

/** What the code is for, in words: one exam (its masked patient) or an organisation. */
export function CodeTarget({ info, className }: { info: UploadCodeInfo; className: string }) {
  const { t } = useTranslation();
  return (
    <p className={className}>
      {info.exam ? t('upload.code.forExam', { name: info.exam.patientName, modality: info.exam.modality, organisation: info.bucketName }) : t('upload.code.forOrganisation', { organisation: info.bucketName })}
    </p>
  );
}
