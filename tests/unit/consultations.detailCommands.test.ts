import { describe, expect, it } from 'vitest';
import { CONSULTATION_ACTIONS, type ConsultationAction } from '../../contract/consultations';
import { consultationCommands, type ConsultationCommandContext } from '@/features/consultations/detail/commands';

const nothing = () => undefined;

function context(page: ConsultationCommandContext['page'], transitions: readonly ConsultationAction[]): ConsultationCommandContext {
  const set = new Set(transitions);
  return {
    page, can: (action) => set.has(action), canSaveResult: set.has('writeResult'), canPrint: page === 'print',
    schedule: nothing, update: nothing, editResult: nothing, saveResult: nothing, approve: nothing, cancel: nothing, rate: nothing,
    payment: nothing, members: nothing, addCase: nothing, link: nothing, addExam: nothing, suggest: nothing, print: nothing,
    video: nothing, reload: nothing, back: nothing,
  };
}

const offered = (ctx: ConsultationCommandContext) => consultationCommands.filter((c) => !c.when || c.when(ctx)).map((c) => c.id);

describe('the consultation commands', () => {
  it('offer each action of the detail exactly when its transitions list it', () => {
    const byAction: Partial<Record<ConsultationAction, string>> = {
      schedule: 'consultation.schedule', update: 'consultation.update', writeResult: 'consultation.editResult', approve: 'consultation.approve',
      cancel: 'consultation.cancel', rate: 'consultation.rate', setPayment: 'consultation.payment', editMembers: 'consultation.members',
      addCase: 'consultation.addCase', link: 'consultation.link', addExam: 'consultation.addExam', suggest: 'consultation.suggest', print: 'consultation.print',
    };
    for (const [action, id] of Object.entries(byAction) as [ConsultationAction, string][]) {
      expect(offered(context('detail', [action])), action).toContain(id);
      const others = CONSULTATION_ACTIONS.filter((a) => a !== action);
      expect(offered(context('detail', others)), action).not.toContain(id);
    }
  });

  it('offer no action on a related (read-only) consultation, whatever it lists, but the way back', () => {
    const ids = offered(context('related', CONSULTATION_ACTIONS));
    expect(ids).toEqual(['consultation.reload', 'consultation.back']);
  });

  it('print on the print view (Ctrl+P) and go back with Esc', () => {
    const ids = offered(context('print', []));
    expect(ids).toEqual(['consultation.print', 'consultation.back']);
    expect(consultationCommands.find((c) => c.id === 'consultation.print')!.shortcut).toBe('$mod+p');
  });

  it('every command has its own key', () => {
    const keys = consultationCommands.map((c) => c.shortcut);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
