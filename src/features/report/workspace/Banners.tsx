import { useTranslation } from 'react-i18next';
import type { ReportView } from '../../../../contract/reports';
import type { DraftOffer } from '../model/draftStore';
import { formatDateTime } from '@/lib/format';

/**
 * Core §8: a report locked by someone else is read-only here, and the page says so with the catalogue's words.
 * A supervisor the machine lets force-unlock gets the button for it.
 */
export function LockBanner({ report, onForceUnlock }: { report: ReportView; onForceUnlock: () => void }) {
  const { t } = useTranslation();
  return (
    <div role="alert" data-banner="locked" className="flex items-center gap-3 rounded-md border border-warn/50 bg-warn-soft px-3 py-2 text-sm text-warn">
      <span className="min-w-0 flex-1">
        {t('errors.ReportLocked', { name: report.locker?.name ?? '' })}
        {report.lockedAt && <span className="ml-2 text-xs opacity-80">{t('report.lock.since', { time: formatDateTime(report.lockedAt) })}</span>}
      </span>
      {report.transitions.includes('force-unlock') && (
        <button type="button" className="btn h-7 px-2.5" onClick={onForceUnlock}>{t('report.lock.forceUnlock')}</button>
      )}
    </div>
  );
}

/** A deleted report (core §4 "removed from the list"), opened by its address: read only, and recoverable by those the machine lets. */
export function DeletedBanner({ report, busy, onRecover }: { report: ReportView; busy: boolean; onRecover: () => void }) {
  const { t } = useTranslation();
  return (
    <div role="alert" data-banner="deleted" className="flex items-center gap-3 rounded-md border border-danger/40 bg-danger-soft px-3 py-2 text-sm text-danger">
      <span className="min-w-0 flex-1">
        {report.deletedTime ? t('report.deleted.since', { time: formatDateTime(report.deletedTime) }) : t('report.deleted.title')}
      </span>
      {report.transitions.includes('recovery') && (
        <button type="button" className="btn h-7 px-2.5" disabled={busy} onClick={onRecover}>{t('report.actions.recover')}</button>
      )}
    </div>
  );
}

/** A local draft found on opening: restore it or discard it, decided before anything else can be typed. */
export function DraftBanner({ offer, onRestore, onDiscard }: { offer: DraftOffer; onRestore: () => void; onDiscard: () => void }) {
  const { t } = useTranslation();
  if (offer.kind !== 'newer' && offer.kind !== 'older') return null;
  const when = formatDateTime(new Date(offer.draft.updatedAt).toISOString());
  const newer = offer.kind === 'newer';
  return (
    <div role="alert" data-banner="draft" className="flex flex-wrap items-center gap-3 rounded-md border border-accent/40 bg-accent-soft px-3 py-2 text-sm">
      <span className="min-w-0 flex-1">{t(newer ? 'report.draft.newer' : 'report.draft.older', { time: when })}</span>
      <button type="button" className={`btn h-7 px-2.5 ${newer ? 'btn-primary' : ''}`} onClick={onRestore} autoFocus={newer}>
        {t('report.draft.restore')}
      </button>
      <button type="button" className={`btn h-7 px-2.5 ${newer ? '' : 'btn-primary'}`} onClick={onDiscard} autoFocus={!newer}>
        {t('report.draft.discard')}
      </button>
    </div>
  );
}

/** Why the report came back (rejected, recalled) or what the advisor said. */
export function ReasonNote({ report }: { report: ReportView }) {
  const { t } = useTranslation();
  const shown = report.status === 'hold' || report.lifecycleStatus === 'hold'
    ? { key: 'report.reasons.rejected', text: report.rejectReason }
    : report.status === 'cancelled' || report.lifecycleStatus === 'cancelled'
      ? { key: 'report.reasons.recalled', text: report.recallReason }
      : report.lifecycleStatus === 'advised'
        ? { key: 'report.reasons.advised', text: report.adviceReason }
        : null;
  if (!shown?.text) return null;
  return (
    <div role="note" className="rounded-md border border-line bg-sunken px-3 py-2 text-sm">
      <span className="mr-2 font-medium">{t(shown.key as 'report.reasons.rejected')}</span>
      <span className="whitespace-pre-wrap">{shown.text}</span>
    </div>
  );
}
