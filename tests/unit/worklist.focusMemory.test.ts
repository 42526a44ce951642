// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { resetModuleState } from '@/lib/session/moduleState';
import { recallFocus, rememberFocus } from '@/features/worklist/focusMemory';

describe('the worklist row remembered for coming back', () => {
  it('is the same row of the same view, and none for another view', () => {
    rememberFocus({ view: 'today=1', index: 5, examId: 42 });
    expect(recallFocus('today=1')).toEqual({ view: 'today=1', index: 5, examId: 42 });
    expect(recallFocus('mod=ct')).toBeNull();
  });

  it('is forgotten at logout, so the next account starts at the top', () => {
    rememberFocus({ view: '', index: 7, examId: 9 });
    resetModuleState();
    expect(recallFocus('')).toBeNull();
  });
});
