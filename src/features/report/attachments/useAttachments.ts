import { useCallback, useEffect, useState } from 'react';
import type { ReportAttachment } from '../../../../contract/images';
import { isSessionEndingError } from '@/lib/http';
import { attachmentApi } from './api';

export type AttachmentsState =
  | { state: 'loading' }
  | { state: 'ready'; items: ReportAttachment[] }
  | { state: 'error'; error: unknown };

/**
 * The report's attachments as the server lists them. A refresh keeps the rows on screen while it asks (files an
 * outsider adds through an upload code arrive while the panel is open), and says it is under way.
 */
export function useAttachments(reportId: number) {
  const [loaded, setLoaded] = useState<AttachmentsState & { round: number }>({ state: 'loading', round: 0 });
  const [round, setRound] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    attachmentApi.list(reportId, { signal: controller.signal }).then(
      (items) => setLoaded({ state: 'ready', items, round }),
      (error: unknown) => !controller.signal.aborted && !isSessionEndingError(error) && setLoaded({ state: 'error', error, round }),
    );
    return () => controller.abort();
  }, [reportId, round]);

  const refresh = useCallback(() => setRound((n) => n + 1), []);
  /** A deleted file leaves the list at once; the next refresh asks the server again. */
  const forget = useCallback((attachmentId: number) => setLoaded((current) => current.state === 'ready'
    ? { ...current, items: current.items.filter((item) => item.id !== attachmentId) }
    : current), []);

  return { loaded, refreshing: loaded.round !== round, refresh, forget };
}
