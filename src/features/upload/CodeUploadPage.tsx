import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import { PublicFrame } from '@/ui/PublicFrame';
import { CodeGate, CodeTarget } from './CodeGate';
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
      <CodeGate code={code} info={info} error={error} kind="serviceOrder">
        {(info, code) => (
          <>
            <CodeTarget info={info} className="mb-4 text-sm text-fg-muted" />
            <UploadWizard key={round} target={{ kind: 'code', code }} destination={info.bucketName} onRestart={() => setRound((n) => n + 1)} />
          </>
        )}
      </CodeGate>
    </PublicFrame>
  );
}
