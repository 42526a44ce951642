import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '@/lib/errorText';
import { http, isSessionEndingError } from '@/lib/http';
import { toasts } from '@/lib/toasts';

/**
 * What can be done with the selected exams: delete them (live view) or recover them (deleted view, within 30
 * days). One request per exam, in turn; a refusal names how many went through so nothing is silently half done.
 */
export function SelectionBar({ count, ids, deletedView, canDelete, onDone, onClear }: {
  count: number;
  ids: number[];
  deletedView: boolean;
  canDelete: boolean;
  onDone: () => void;
  onClear: () => void;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);

  async function run() {
    setBusy(true);
    let done = 0;
    try {
      for (const id of ids) {
        if (deletedView) await http.post(`exams/${id}/recover`);
        else await http.delete(`exams/${id}/delete`);
        done += 1;
      }
      toasts.show({ kind: 'success', message: t(deletedView ? 'worklist.selection.recovered' : 'worklist.selection.deleted', { count: done }) });
      onDone();
    } catch (error) {
      if (!isSessionEndingError(error)) toasts.show({ kind: 'error', message: `${t('worklist.selection.partial', { done, count: ids.length })} ${errorText(t, error)}` });
      if (done > 0) onDone();
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  }

  return (
    <div role="region" aria-label={t('worklist.selection.label')} className="flex items-center gap-3 border-b border-line bg-accent-soft px-3 py-1 text-[13px]">
      <span className="font-medium">{t('worklist.selection.count', { count })}</span>
      {canDelete &&
        (confirming ? (
          <>
            <span className="text-fg-muted">{t(deletedView ? 'worklist.selection.confirmRecover' : 'worklist.selection.confirmDelete', { count })}</span>
            <button type="button" className={`btn h-7 text-[13px] ${deletedView ? 'btn-primary' : 'border-danger text-danger'}`} disabled={busy} onClick={() => void run()} autoFocus>
              {t('common.ok')}
            </button>
            <button type="button" className="btn h-7 text-[13px]" onClick={() => setConfirming(false)}>{t('common.cancel')}</button>
          </>
        ) : (
          <button type="button" className="btn h-7 text-[13px]" onClick={() => setConfirming(true)}>
            {t(deletedView ? 'worklist.selection.recover' : 'worklist.selection.delete')}
          </button>
        ))}
      <button type="button" className="link ml-auto" onClick={onClear}>{t('worklist.selection.clear')}</button>
    </div>
  );
}
