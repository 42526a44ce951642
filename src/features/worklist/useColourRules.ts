import { useEffect, useState } from 'react';
import { http } from '@/lib/http';
import { orderRules, type ColourRule } from './colourRules';

/**
 * The group's report-table colour rules (report-table-colour find-by-group), ordered for resolution. A group
 * without rules, or a failed call, leaves the rows in the theme's colours: colour is a help, never a blocker.
 */
export function useColourRules(groupId: number | null): readonly ColourRule[] {
  const [rules, setRules] = useState<readonly ColourRule[]>([]);
  useEffect(() => {
    if (groupId === null) return;
    const controller = new AbortController();
    http
      .get<ColourRule[] | { items: ColourRule[] }>('report-table-colour/find-by-group', { query: { groupId }, signal: controller.signal })
      .then((answer) => setRules(orderRules(Array.isArray(answer) ? answer : answer.items)))
      .catch(() => undefined);
    return () => controller.abort();
  }, [groupId]);
  return rules;
}
