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
import { orderApi } from './api';
import { OrderView } from './OrderView';

/**
 * /{examId}/apply-report/{applicationId}?type (areas §2): the payment order of one application. An open address
 * (handed over as a link) whose calls need the session: signed out, it asks to sign in and comes back.
 */
export default function OrderPage() {
  const { t } = useTranslation();
  const { status } = useSession();
  const params = useParams<{ examId: string; applicationId: string }>();
  const id = idFrom(params.applicationId);
  const signedIn = status === 'ready';
  const order = useLoad(id === null || !signedIn ? null : `order:${id}`, (signal) => orderApi.detail(id!, { signal }));

  if (status === 'signedOut' || status === 'loggedOut') return <SignInPrompt />;
  if (id === null) return <Problem text={t('payments.common.noId')} />;
  if (order.error && !isSessionEndingError(order.error)) return <Problem text={errorText(t, order.error)} onRetry={order.reload} />;
  if (!order.data) return <div className="flex flex-1 items-center justify-center py-16"><Spinner label={t('common.loading')} /></div>;
  return <OrderView detail={order.data} reload={order.reload} />;
}
