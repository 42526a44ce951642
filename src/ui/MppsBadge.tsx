import { useTranslation } from 'react-i18next';
import { timeIn } from '../../contract/days';
import { formatTime } from '@/lib/format';
import type { MppsProgress } from '../../contract/mpps';

/**
 * The modality's progress on an exam (MPPS, issue 33) as the registry desk and the call queue's operator desk show it:
 * who is scanning since when, done (with the images the modality counted), or discontinued. The words carry the state
 * (not the colour alone), and the badge's title repeats it whole with the times for a pointer or a screen reader.
 */
const TONE: Record<MppsProgress['status'], string> = {
  'IN PROGRESS': 'border-accent/50 bg-accent-soft text-fg',
  COMPLETED: 'border-ok/40 text-ok',
  DISCONTINUED: 'border-danger/40 text-danger',
};

/** Times in the organisation's zone when the screen knows it (the registry desk), else the browser's (the call queue's desk). */
export function MppsBadge({ mpps, timeZone }: { mpps: MppsProgress; timeZone?: string }) {
  const { t } = useTranslation();
  const at = (iso: string) => (timeZone ? timeIn(new Date(iso), timeZone) : formatTime(iso));
  const since = at(mpps.started);
  const ended = mpps.ended ? at(mpps.ended) : null;
  const text = mpps.status === 'IN PROGRESS'
    ? t('mpps.inProgress', { station: mpps.stationAe, time: since })
    : mpps.status === 'COMPLETED'
      ? (mpps.images === null ? t('mpps.completed') : t('mpps.completedImages', { count: mpps.images }))
      : t('mpps.discontinued');
  const title = mpps.status === 'IN PROGRESS'
    ? text
    : t('mpps.ended', { what: text, station: mpps.stationAe, from: since, to: ended ?? '' });
  return (
    <span
      data-mpps={mpps.status}
      title={title}
      className={`inline-flex h-[18px] items-center gap-1 rounded border px-1.5 text-[11px] font-medium leading-none whitespace-nowrap [:lang(bo)_&]:h-auto [:lang(bo)_&]:py-0.5 ${TONE[mpps.status]}`}
    >
      {mpps.status === 'IN PROGRESS' && <span aria-hidden="true" className="size-1.5 rounded-full bg-accent motion-safe:animate-pulse" />}
      <span className="sr-only">{t('mpps.label')}: </span>
      {text}
    </span>
  );
}
