import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import { PublicFrame } from '@/ui/PublicFrame';
import { errorText } from '@/lib/errorText';
import { Alert } from '@/ui/Alert';
import { Spinner } from '@/ui/Spinner';
import { UploadWizard } from './UploadWizard';
import { useUploadCode } from './useUploadCode';

/** /service-orders/upload?code: images for an organisation (or one exam) by an upload code, without an account. */
export default function CodeUploadPage() {
  const { t } = useTranslation();
  const code = new URLSearchParams(useSearch()).get('code');
  const { info, error } = useUploadCode(code);
  const [round, setRound] = useState(0);
  return (
    <PublicFrame title={t('upload.title')}>
      {!code ? (
        <Alert>{t('upload.code.missing')}</Alert>
      ) : error ? (
        <Alert>{errorText(t, error)}</Alert>
      ) : !info ? (
        <Spinner label={t('common.loading')} />
      ) : info.kind !== 'serviceOrder' ? (
        <Alert>{t('upload.code.wrongKind')}</Alert>
      ) : (
        <>
          <p className="mb-4 text-sm text-fg-muted">
            {info.exam ? t('upload.code.forExam', { name: info.exam.patientName, modality: info.exam.modality, organisation: info.bucketName }) : t('upload.code.forOrganisation', { organisation: info.bucketName })}
          </p>
          <UploadWizard key={round} target={{ kind: 'code', code }} destination={info.bucketName} onRestart={() => setRound((n) => n + 1)} />
        </>
      )}
    </PublicFrame>
  );
}
