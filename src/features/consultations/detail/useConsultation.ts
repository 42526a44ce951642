import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConsultationDetail } from '../../../../contract/consultations';
import { errorText } from '@/lib/errorText';
import { isHttpError, isSessionEndingError, onSessionResumed } from '@/lib/http';
import { toasts } from '@/lib/toasts';
import { useLoad } from '@/lib/useLoad';
import { detailApi } from './api';

export type Write = (call: (detail: ConsultationDetail) => Promise<unknown>, done?: string) => Promise<boolean>;

/**
 * One consultation and its log, and the one way the screen writes: every write sends the version it read, and a
 * VersionConflict (someone changed it meanwhile) says so in a toast and reads the detail again. Any write reads the
 * detail and the log again after it, so `transitions` always comes from the server.
 */
export function useConsultation(id: number) {
  const { t } = useTranslation();
  const detail = useLoad(Number.isInteger(id) && id > 0 ? `consultation:${id}` : null, (signal) => detailApi.detail(id, { signal }));
  const traces = useLoad(detail.data ? `consultation:${id}:traces` : null, (signal) => detailApi.traces(id, { signal }));
  const [busy, setBusy] = useState(false);
  const reloadDetail = detail.reload;
  const reloadTraces = traces.reload;
  const reload = useCallback(() => {
    reloadDetail();
    reloadTraces();
  }, [reloadDetail, reloadTraces]);
  useEffect(() => onSessionResumed(reload), [reload]);

  const current = detail.data;
  const write: Write = useCallback(async (call, done) => {
    if (!current) return false;
    setBusy(true);
    try {
      await call(current);
      if (done) toasts.show({ message: done, kind: 'success', duration: 3000 });
      reload();
      return true;
    } catch (err) {
      if (isHttpError(err) && err.code === 'VersionConflict') {
        toasts.show({ message: t('consultations.detail.conflict'), kind: 'warning', duration: 6000 });
        reload();
      } else if (!isSessionEndingError(err)) {
        toasts.show({ message: errorText(t, err), kind: 'error' });
      }
      return false;
    } finally {
      setBusy(false);
    }
  }, [current, reload, t]);

  return { detail, traces, busy, reload, write };
}
