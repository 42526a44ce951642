import { useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { QuickRange, StatScopeAnswer, StatUnit } from '../../../contract/statistics';
import { CommandScope, useCommands } from '@/lib/commands';
import { saveBlob, stampedName } from '@/lib/download';
import { errorText } from '@/lib/errorText';
import { isSessionEndingError } from '@/lib/http';
import { toasts } from '@/lib/toasts';
import { Alert } from '@/ui/Alert';
import { KeyHint } from '@/ui/Section';
import { Spinner } from '@/ui/Spinner';
import { statsApi } from './api';
import { ChartRail } from './ChartRail';
import { statisticsCommands, type StatisticsCtx } from './commands';
import { RangeBar } from './RangeBar';
import { StatChart } from './StatChart';
import { StatTable, TotalCards } from './StatTable';
import { useStatistics } from './useStatistics';

/**
 * One group's statistics (areas §2): the range bar, the rail of charts and the selected chart with its table beside
 * it (stacked on narrow screens). The chart's box has a fixed height and the last answer stays (dimmed) while the
 * next one loads, so nothing jumps.
 */
export function StatisticsBoard({ groupId, scope, heading }: { groupId: number; scope: StatScopeAnswer; heading: ReactNode }) {
  const { t } = useTranslation();
  const [bucketId, setBucketId] = useState<number | null>(null);
  const bucketIds = bucketId === null ? [] : [bucketId];
  const { charts, chart, actor, snap, question, answer, select, move } = useStatistics(groupId, scope, bucketIds);
  const [exporting, setExporting] = useState(false);
  const fromRef = useRef<HTMLInputElement>(null);
  const result = answer.data && answer.data.name === question.name ? answer.data : null;
  const title = t(`statistics.charts.${chart}.title`);

  async function exportNow() {
    setExporting(true);
    try {
      saveBlob(await statsApi.export(groupId, question, bucketIds, question.name), stampedName(`statistics-${question.name}`, new Date()));
      toasts.show({ kind: 'success', message: t('statistics.page.exported') });
    } catch (error) {
      if (!isSessionEndingError(error)) toasts.show({ kind: 'error', message: errorText(t, error) });
    } finally {
      setExporting(false);
    }
  }

  const canExport = !exporting && result !== null;
  const quick = (q: QuickRange) => actor.send({ type: 'QUICK', quick: q });
  const unit = (u: StatUnit) => actor.send({ type: 'UNIT', unit: u });
  const ctx: StatisticsCtx = {
    quick,
    unit,
    move,
    canToggleBy: chart === 'report',
    toggleBy: () => actor.send({ type: 'BY', by: snap.context.draft.by === 'modality' ? 'radiologist' : 'modality' }),
    canExport,
    exportNow: () => void exportNow(),
    focusFrom: () => fromRef.current?.focus(),
  };
  useCommands(statisticsCommands, ctx);

  const fatal = answer.error && !isSessionEndingError(answer.error) ? answer.error : null;
  return (
    <CommandScope scope="statistics">
      <div className="flex min-h-0 flex-1 flex-col" data-testid="statistics-page">
        <div className="flex flex-wrap items-center gap-3 border-b border-line bg-surface px-3 py-1.5">
          {heading}
          <span className="ml-auto" />
          {chart === 'report' && (
            <div role="group" aria-label={t('statistics.page.by')} className="inline-flex overflow-hidden rounded-md border border-line-strong">
              {(['modality', 'radiologist'] as const).map((by) => (
                <button key={by} type="button" aria-pressed={snap.context.draft.by === by} data-testid={`stat-by-${by}`}
                  className={`h-7 border-r border-line-strong px-2.5 text-[13px] last:border-r-0 ${snap.context.draft.by === by ? 'bg-accent-soft font-medium' : 'bg-surface text-fg-muted hover:bg-sunken'}`}
                  onClick={() => actor.send({ type: 'BY', by })}>
                  {t(by === 'modality' ? 'statistics.page.byModality' : 'statistics.page.byRadiologist')}
                </button>
              ))}
              <span className="flex items-center px-1.5"><KeyHint keys="B" /></span>
            </div>
          )}
          <button type="button" className="btn h-7" disabled={!canExport} onClick={() => void exportNow()} data-testid="stat-export">
            {t('statistics.page.export')} <KeyHint keys="E" />
          </button>
        </div>
        <RangeBar range={snap.context} scope={scope} bucketId={bucketId} fromRef={fromRef}
          onQuick={quick} onUnit={unit} onRange={(from, to) => actor.send({ type: 'RANGE', from, to })} onBucket={setBucketId} />
        <div className="flex min-h-0 flex-1 max-lg:flex-col">
          <ChartRail charts={charts} chart={chart} onSelect={select} />
          <section className="flex min-h-0 min-w-0 flex-1 flex-col gap-3 overflow-auto p-3" aria-labelledby="stat-title" data-testid="stat-main" data-chart={chart}>
            <header className="flex flex-wrap items-baseline gap-x-3">
              <h2 id="stat-title" className="text-sm font-semibold">{title}</h2>
              <p className="text-[13px] text-fg-muted">{t(`statistics.charts.${chart}.hint`)}</p>
            </header>
            {fatal ? (
              <div className="flex flex-col gap-3"><Alert>{errorText(t, fatal)}</Alert>
                <div><button type="button" className="btn" onClick={answer.reload}>{t('common.retry')}</button></div></div>
            ) : !result ? (
              <div className="flex h-[340px] items-center justify-center"><Spinner label={t('common.loading')} /></div>
            ) : (
              <div className={`flex flex-col gap-3 transition-opacity ${answer.loading ? 'opacity-60' : ''}`} aria-busy={answer.loading} data-testid="stat-result"
                data-question={JSON.stringify(question)} data-loading={answer.loading}>
                {question.name === 'overview-total' && <TotalCards result={result} />}
                {/* Side by side on wide screens when the table is narrow enough to read there; stacked otherwise. */}
                <div className={`grid gap-3 ${result.columns.length <= 6 ? 'xl:grid-cols-[minmax(0,7fr)_minmax(0,6fr)]' : ''}`} data-layout={result.columns.length <= 6 ? 'beside' : 'stacked'}>
                  <div className="h-[340px] min-w-0 rounded-md border border-line bg-surface p-2">
                    <StatChart result={result} label={t('statistics.page.chartLabel', { title })} />
                  </div>
                  <div className={`flex min-w-0 flex-col ${result.columns.length <= 6 ? 'max-h-[340px] xl:h-[340px]' : ''}`}>
                    <StatTable result={result} caption={title} />
                  </div>
                </div>
              </div>
            )}
          </section>
        </div>
      </div>
    </CommandScope>
  );
}
