import { useTranslation } from 'react-i18next';
import type { LearningProgress } from '../../../contract/learning';
import { watchedFraction } from './progress';

/** How much of a video the account has watched: a thin bar and its words ("45%", "watched"). */
export function ProgressBar({ progress, durationSec, className = '' }: { progress: LearningProgress; durationSec: number; className?: string }) {
  const { t } = useTranslation();
  const fraction = watchedFraction(progress, durationSec);
  const percent = Math.round(fraction * 100);
  const label = progress.completed ? t('learning.progress.completed') : progress.updated === null ? t('learning.progress.notStarted') : t('learning.progress.percent', { percent });
  return (
    <div className={`flex items-center gap-2 ${className}`} data-testid="learning-progress" data-percent={percent} data-completed={progress.completed}>
      <div className="h-1.5 min-w-16 flex-1 overflow-hidden rounded-full bg-sunken" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-label={label}>
        <div className={`h-full rounded-full ${progress.completed ? 'bg-ok' : 'bg-accent'}`} style={{ width: `${percent}%` }} />
      </div>
      <span className={`w-14 shrink-0 text-right text-xs tabular-nums ${progress.completed ? 'text-ok' : 'text-fg-muted'}`}>{label}</span>
    </div>
  );
}
