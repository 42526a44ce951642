import { useTranslation } from 'react-i18next';
import { useParams } from 'wouter';
import { errorText } from '@/lib/errorText';
import { isSessionEndingError } from '@/lib/http';
import { useSession } from '@/lib/session';
import { useLoad } from '@/lib/useLoad';
import { Spinner } from '@/ui/Spinner';
import { idFrom } from '../common/paths';
import { Problem } from '../common/Problem';
import { SignInPrompt } from '../common/SignInPrompt';
import { chargeApi } from './api';
import { ChargeView } from './ChargeView';

/**
 * /charge/{id} (areas §2; id = the application): pay it by QR code. An open address whose calls need the session:
 * signed out, it asks to sign in and comes back here. The packages and the application are read first.
 */
export default function ChargePage() {
  const { t } = useTranslation();
  const { status } = useSession();
  const params = useParams<{ id: string }>();
  const id = idFrom(params.id);
  const ready = status === 'ready' && id !== null;
  const detail = useLoad(ready ? `charge:${id}` : null, (signal) => chargeApi.detail(id!, { signal }));
  const packages = useLoad(ready ? `packages:${id}` : null, (signal) => chargeApi.packages(id!, { signal }));

  if (status === 'signedOut' || status === 'loggedOut') return <SignInPrompt />;
  if (id === null) return <Problem text={t('payments.common.noId')} />;
  const failed = [detail.error, packages.error].find((e) => e && !isSessionEndingError(e));
  if (failed) return <Problem text={errorText(t, failed)} onRetry={() => { detail.reload(); packages.reload(); }} />;
  if (!detail.data || !packages.data) return <div className="flex flex-1 items-center justify-center py-16"><Spinner label={t('common.loading')} /></div>;
  return <ChargeView order={detail.data.order} packages={packages.data} />;
}
