import type { ReportView } from '../../../contract/reports';
import { registerModuleReset } from '@/lib/session/moduleState';

/**
 * A report view handed from the screen that opens a case to the workspace that shows it. Opening an unreported
 * exam creates its draft (POST exams/{id}/reports answers the whole view): the workspace starts from that answer
 * instead of asking GET detail again, one round trip less between Enter and the caret. Taken once, and only
 * while fresh: anything older is asked for again.
 */
const FRESH_MS = 5_000;
let primed: { view: ReportView; at: number } | null = null;

export function primeReport(view: ReportView, now = Date.now()): void {
  primed = { view, at: now };
}

export function takePrimedReport(reportId: number, now = Date.now()): ReportView | null {
  const held = primed;
  primed = null;
  return held && held.view.id === reportId && now - held.at <= FRESH_MS ? held.view : null;
}

// The view carries the signed-in account's transitions: it never outlives the session.
registerModuleReset(() => {
  primed = null;
});
