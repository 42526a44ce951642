import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';
import { OVERVIEW_STATS, STAT_NAMES, type StatName, type StatScopeAnswer } from '../../../contract/statistics';
import { statisticsRangeMachine, type StatQuestion } from '../../../machines/statisticsRange';
import { navigate } from '@/lib/session';
import { useLoad } from '@/lib/useLoad';
import { statsApi } from './api';

/** The rail's charts: the overview first when the group allows it, else without it (areas §6 allowOverview). */
export function chartsOf(scope: Pick<StatScopeAnswer, 'allowOverview'>): StatName[] {
  const rest = STAT_NAMES.filter((n) => !OVERVIEW_STATS.includes(n));
  return scope.allowOverview ? [...OVERVIEW_STATS, ...rest] : rest;
}

const isStatName = (v: string | null): v is StatName => v !== null && (STAT_NAMES as readonly string[]).includes(v);

/**
 * The dashboard's state: the range machine (what is asked), the chart from the address (?chart=, so the palette
 * and a shared link open one), the organisations filter, and the answer. While a new answer is on its way, or the
 * draft breaks a rule, the last answer stays on the screen.
 */
export function useStatistics(groupId: number, scope: StatScopeAnswer, bucketIds: readonly number[]) {
  const charts = useMemo(() => chartsOf(scope), [scope]);
  const [location] = useLocation();
  const wanted = new URLSearchParams(useSearch()).get('chart');
  const chart: StatName = isStatName(wanted) && charts.includes(wanted) ? wanted : charts[0]!;
  const actor = useActorRef(statisticsRangeMachine, { input: { today: scope.today, name: chart } });
  const snap = useSelector(actor, (s) => s);
  useEffect(() => {
    if (snap.context.draft.name !== chart) actor.send({ type: 'CHART', name: chart });
  }, [actor, chart, snap.context.draft.name]);

  const question: StatQuestion = snap.context.question;
  const key = `stat:${groupId}:${JSON.stringify(question)}:${bucketIds.join(',')}`;
  const answer = useLoad(key, (signal) => statsApi.result(groupId, question, bucketIds, { signal }));

  /** Selects a chart by writing the address (replace: moving through the rail is not history). */
  const select = (name: StatName) => navigate(`${location}?chart=${name}`, { replace: true });
  const move = (step: 1 | -1) => {
    const i = charts.indexOf(chart);
    select(charts[(i + step + charts.length) % charts.length]!);
  };
  return { charts, chart, actor, snap, question, answer, select, move };
}
