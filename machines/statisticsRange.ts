import { assign, setup, type SnapshotFrom } from 'xstate';
import {
  quickRange, rangeProblem, type QuickRange, type RangeProblem, type StatName, type StatUnit,
} from '../contract/statistics';

/**
 * The statistics page's question (areas §2 /group-statistics, §5 statistics rules, §9 quick ranges and units): which
 * chart, over which days, counted by which unit, with the turnaround table's rows by modality or by radiologist.
 * Pure rules: the page sends what the user chose, the machine says whether the server would answer it (the
 * contract's `rangeProblem`, the same function the server applies) and keeps the last question it would answer, so
 * the page never asks one the server refuses; an unanswerable choice shows its catalogue code beside the range and
 * the last good chart stays.
 *
 *   valid ── QUICK / UNIT / RANGE / CHART / BY ──▶ valid   (the draft is answerable: it becomes the question)
 *         ╰─────────────────────────────────────▶ invalid (it is not: `problem` holds the code, the question stays)
 *   invalid ── any of them ──▶ valid / invalid by the same guard
 */

export type StatBy = 'modality' | 'radiologist';

/** What the page asks the server: `POST statistics/<name>` with these fields (days resolved, quick ranges too). */
export interface StatQuestion {
  name: StatName;
  from: string;
  to: string;
  unit: StatUnit;
  by: StatBy;
}

export interface StatisticsRangeContext {
  /** Today in the group's time zone (statistics/scope answers it): what the quick ranges count back from. */
  today: string;
  /** What the user has chosen, answerable or not. */
  draft: StatQuestion;
  /** The quick range the draft came from, or null for a custom from–to. */
  quick: QuickRange | null;
  /** Why the draft cannot be asked (its catalogue code), or null. */
  problem: RangeProblem | null;
  /** The last answerable question: what the page shows. */
  question: StatQuestion;
}

export type StatisticsRangeEvent =
  | { type: 'QUICK'; quick: QuickRange }
  | { type: 'UNIT'; unit: StatUnit }
  /** A custom range from the date inputs; an empty input is '' (StatisticsPeriodRequired). */
  | { type: 'RANGE'; from: string; to: string }
  | { type: 'CHART'; name: StatName }
  | { type: 'BY'; by: StatBy };

export interface StatisticsRangeInput {
  today: string;
  name?: StatName;
  quick?: QuickRange;
  unit?: StatUnit;
  by?: StatBy;
}

/**
 * The draft and its quick range after an event, before it is checked. UNIT, CHART and BY keep the way the days
 * were chosen (a quick range stays highlighted); RANGE makes them custom.
 */
export function draftAfter(context: Pick<StatisticsRangeContext, 'today' | 'draft' | 'quick'>, event: StatisticsRangeEvent): { draft: StatQuestion; quick: QuickRange | null } {
  const { draft, quick } = context;
  switch (event.type) {
    case 'QUICK': return { draft: { ...draft, ...quickRange(event.quick, context.today) }, quick: event.quick };
    case 'RANGE': return { draft: { ...draft, from: event.from, to: event.to }, quick: null };
    case 'UNIT': return { draft: { ...draft, unit: event.unit }, quick };
    case 'CHART': return { draft: { ...draft, name: event.name }, quick };
    case 'BY': return { draft: { ...draft, by: event.by }, quick };
  }
}

/** The catalogue code of a question, or null when the server answers it (the contract's rule). */
export const problemOf = (q: StatQuestion): RangeProblem | null => rangeProblem(q.name, q.unit, q.from, q.to);

export const statisticsRangeMachine = setup({
  types: { context: {} as StatisticsRangeContext, events: {} as StatisticsRangeEvent, input: {} as StatisticsRangeInput },
  guards: {
    /** Areas §5: a period given, not reversed, within the chart's and the unit's limit (rangeProblem). */
    isAnswerable: ({ context, event }) => problemOf(draftAfter(context, event).draft) === null,
  },
  actions: {
    /** The draft becomes the question the page asks. */
    ask: assign(({ context, event }) => {
      const { draft, quick } = draftAfter(context, event);
      return { draft, quick, problem: null, question: draft };
    }),
    /** The draft is kept (the inputs show it) with its code; the question, and so the chart, stay. */
    refuse: assign(({ context, event }) => {
      const { draft, quick } = draftAfter(context, event);
      return { draft, quick, problem: problemOf(draft) };
    }),
  },
}).createMachine({
  id: 'statisticsRange',
  context: ({ input }) => {
    const quick = input.quick ?? '7d';
    const draft: StatQuestion = { name: input.name ?? 'study', unit: input.unit ?? 'day', by: input.by ?? 'modality', ...quickRange(quick, input.today) };
    return { today: input.today, draft, quick, problem: null, question: draft };
  },
  initial: 'valid',
  on: {
    QUICK: [{ guard: 'isAnswerable', target: '.valid', actions: 'ask' }, { target: '.invalid', actions: 'refuse' }],
    UNIT: [{ guard: 'isAnswerable', target: '.valid', actions: 'ask' }, { target: '.invalid', actions: 'refuse' }],
    RANGE: [{ guard: 'isAnswerable', target: '.valid', actions: 'ask' }, { target: '.invalid', actions: 'refuse' }],
    CHART: [{ guard: 'isAnswerable', target: '.valid', actions: 'ask' }, { target: '.invalid', actions: 'refuse' }],
    BY: [{ guard: 'isAnswerable', target: '.valid', actions: 'ask' }, { target: '.invalid', actions: 'refuse' }],
  },
  states: {
    /** The draft is the question; the page shows its chart. */
    valid: {},
    /** The draft breaks a rule: its code beside the range, the last good question's chart below. */
    invalid: {},
  },
});

export type StatisticsRangeSnapshot = SnapshotFrom<typeof statisticsRangeMachine>;
