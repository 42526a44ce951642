import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import type { UploadTokenInfo, UploadableBucket } from '../../../contract/uploads';
import { errorText } from '@/lib/errorText';
import { http, isSessionEndingError } from '@/lib/http';
import { Alert } from '@/ui/Alert';
import { Spinner } from '@/ui/Spinner';
import { UploadWizard } from './UploadWizard';

type Loaded =
  | { kind: 'buckets'; buckets: UploadableBucket[] }
  | { kind: 'token'; token: string; info: UploadTokenInfo };

/**
 * /upload (signed in). With `?token=` (an organisation's upload token) the files go to that organisation;
 * without, to one of the account's organisations where it holds exam_upload (a technician's upload).
 */
export default function UploadPage() {
  const { t } = useTranslation();
  const token = new URLSearchParams(useSearch()).get('token');
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [round, setRound] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    const signal = controller.signal;
    const load: Promise<Loaded> = token
      ? http.get<UploadTokenInfo>(`upload-tokens/${encodeURIComponent(token)}`, { signal }).then((info) => ({ kind: 'token', token, info }))
      : http.get<UploadableBucket[]>('buckets/uploadable', { signal }).then((buckets) => ({ kind: 'buckets', buckets }));
    load.then(setLoaded, (err: unknown) => !signal.aborted && setError(err));
    return () => controller.abort();
  }, [token]);

  return (
    <div className="mx-auto w-full max-w-5xl px-6 py-5">
      <h1 className="mb-4 text-lg font-semibold">{t('upload.title')}</h1>
      {error && !isSessionEndingError(error) ? (
        <Alert>{errorText(t, error)}</Alert>
      ) : !loaded ? (
        <Spinner label={t('common.loading')} />
      ) : loaded.kind === 'buckets' && loaded.buckets.length === 0 ? (
        <Alert>{t('upload.noOrganisation')}</Alert>
      ) : (
        <UploadWizard
          key={round}
          target={loaded.kind === 'token' ? { kind: 'orgToken', token: loaded.token } : null}
          buckets={loaded.kind === 'buckets' ? loaded.buckets : null}
          destination={loaded.kind === 'token' ? loaded.info.bucketName : null}
          worklist="/studies"
          onRestart={() => setRound((n) => n + 1)}
        />
      )}
    </div>
  );
}
