/**
 * Which row of which view had the focus, in sessionStorage, so coming back to the worklist (Esc in the workspace,
 * Back, a reload) lands on the same row. Keyed by the view's query: another view starts at its top.
 */
import { registerModuleReset } from '@/lib/session/moduleState';

const KEY = 'worklist.focus';

export interface FocusMemory {
  view: string;
  index: number;
  examId: number | null;
}

export function rememberFocus(memory: FocusMemory): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(memory));
  } catch {
    // Without storage the worklist comes back at its top.
  }
}

export function recallFocus(view: string): FocusMemory | null {
  try {
    const value = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as FocusMemory | null;
    if (!value || value.view !== view || typeof value.index !== 'number' || value.index < 0) return null;
    return { view, index: Math.floor(value.index), examId: typeof value.examId === 'number' ? value.examId : null };
  } catch {
    return null;
  }
}

export function forgetFocus(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing kept.
  }
}

// Core §4: logging out clears all module state; the next account starts at the top of its list.
registerModuleReset(forgetFocus);
