import type { StatQueryParsed, StatResult } from '../../contract/statistics';
import type { Db } from '../db/client';
import type { StatScope } from './scope';
import type { StatWindow } from './window';

/** What one statistic is asked with: the counted organisations, the period and the question as parsed. */
export interface StatContext {
  db: Db;
  scope: StatScope;
  window: StatWindow;
  input: StatQueryParsed;
}

/** What one statistic answers; routes.ts adds the name, the range and the periods. */
export type StatBody = Pick<StatResult, 'series' | 'columns' | 'rows' | 'totals'>;

export type StatQueryFn = (ctx: StatContext) => Promise<StatBody>;
