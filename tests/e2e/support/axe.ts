import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** The rules the product answers to: WCAG 2.1 levels A and AA (axe-core's tags), and label-content-name-mismatch (below). */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** Impacts that fail a screen: what a keyboard or screen reader user, or a reader with low vision, cannot get past. */
const BLOCKING = new Set(['serious', 'critical']);

/** One element that breaks one rule, in a line a person can act on. */
export interface Finding {
  screen: string;
  rule: string;
  impact: string;
  target: string;
  summary: string;
}

/**
 * Runs axe over the page as it is now (WCAG 2.1 A and AA) and gives each serious or critical violation per element:
 * rule id, the element's selector and a short summary of what is wrong (the first line of axe's own explanation).
 * Animations are finished first, so a fading dialog or toast is judged in its final colours.
 */
export async function axeFindings(page: Page, screen: string): Promise<Finding[]> {
  await page.evaluate(() => document.getAnimations().forEach((a) => {
    try { a.finish(); } catch { /* an infinite animation (a spinner) cannot finish: leave it */ }
  }));
  const result = await new AxeBuilder({ page })
    .options({
      runOnly: { type: 'tag', values: WCAG_TAGS },
      // A WCAG 2.1 A rule axe still calls experimental, so it is off unless asked for: a button whose name does not
      // contain the words it shows cannot be spoken to by voice control.
      rules: { 'label-content-name-mismatch': { enabled: true } },
      // Passes are not needed: reporting one of each keeps a long table quick to judge.
      resultTypes: ['violations'],
    })
    // axe.run in the page itself (same-origin frames only, which is all the app has) instead of runPartial in each
    // frame and finishRun in a fresh blank page: the same verdicts at a fraction of the time.
    .setLegacyMode()
    .analyze();
  return result.violations
    .filter((v) => BLOCKING.has(v.impact ?? ''))
    .flatMap((v) => v.nodes.map((node) => ({
      screen,
      rule: v.id,
      impact: v.impact ?? '',
      target: node.target.map(String).join(' >> '),
      summary: summaryOf(node.failureSummary ?? v.help),
    })));
}

/** axe's explanation reads "Fix any of the following:\n  Element has insufficient colour contrast of 3.9 (...)": keep the meat. */
function summaryOf(text: string): string {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l && !/^Fix (any|all) of the following:?$/.test(l));
  const first = lines[0] ?? text.trim();
  return first.length > 160 ? `${first.slice(0, 157)}...` : first;
}

export const formatFindings = (findings: readonly Finding[]) =>
  findings.map((f) => `${f.screen}: ${f.rule} (${f.impact}) at ${f.target} — ${f.summary}`).join('\n');
