import { readCaseOrder } from '@/lib/cases/caseOrder';
import { recallFocus } from './focusMemory';
import { parseView, viewToSearch, type WorklistView } from './view';

/** The drawer's exam lives in the URL too (`exam=`), so a shared link opens it; it is not a filter. */
export function detailOf(search: string): number | null {
  const value = new URLSearchParams(search).get('exam');
  return value && /^\d{1,10}$/.test(value) ? Number(value) : null;
}

export function urlOf(view: WorklistView, examId: number | null): string {
  const query = viewToSearch(view);
  const withExam = examId ? `${query ? `${query}&` : ''}exam=${examId}` : query;
  return `/studies${withExam ? `?${withExam}` : ''}`;
}

/** The row to focus when a view opens: the case the workspace last showed, else the row of the last visit. */
export function restoreFocus(viewKey: string) {
  const memory = recallFocus(viewKey);
  const order = readCaseOrder();
  const current = order && order.returnPath === urlOf(parseView(viewKey), null) ? order.current : null;
  if (current !== null && order) {
    const at = order.entries.findIndex((e) => e.examId === current);
    return { view: viewKey, index: at >= 0 ? order.offset + at : memory?.index ?? 0, pendingId: current };
  }
  return { view: viewKey, index: memory?.index ?? 0, pendingId: memory?.examId ?? null };
}
