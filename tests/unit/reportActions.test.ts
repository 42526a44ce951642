import { describe, expect, it } from 'vitest';
import type { ReportAction } from '../../contract/reports';
import { transitionsFor, type ReportState } from '../../machines/reportTransitions';
import { reportCommands, type ReportCommandContext } from '@/features/report/commands';
import {
  allows, allowsManage, isEditable, isPendingApproval, MANAGE_ACTIONS, MANAGE_CALLS, offeredActions, offeredManageActions, printCall,
} from '../../machines/reportModel/actions';
import { isModified } from '@/lib/commands';
import { applyAnswer, STATUS_FIELDS } from '../../machines/reportModel/localUpdate';
import { reportView } from './reportWorkspace.fixtures';

const buttons = (transitions: ReportAction[]) => offeredActions(transitions).map((a) => a.action);

describe('buttons from transitions', () => {
  it("offers a writer's draft save and submit, with submit as the primary step", () => {
    const offered = offeredActions(['save', 'submit', 'lock', 'reset', 'delete']);
    expect(offered.map((a) => a.action)).toEqual(['save', 'submit']);
    expect(offered.find((a) => a.primary)?.action).toBe('submit');
  });

  it('offers an approver approve, reject and advise, with approve primary and reject asking a reason', () => {
    const offered = offeredActions(['save', 'approve', 'reject', 'advise', 'lock']);
    expect(offered.map((a) => a.action)).toEqual(['save', 'approve', 'reject', 'advise']);
    expect(offered.find((a) => a.primary)?.action).toBe('approve');
    expect(offered.find((a) => a.action === 'reject')?.reason).toBe('required');
    expect(offered.find((a) => a.action === 'advise')?.reason).toBe('optional');
  });

  it('offers print for a first print and for a reprint alike, and recall with a reason', () => {
    expect(buttons(['print', 'recall'])).toEqual(['recall', 'print']);
    expect(buttons(['update-print-time', 'recall'])).toEqual(['recall', 'print']);
    expect(offeredActions(['recall']).find((a) => a.action === 'recall')?.reason).toBe('required');
    expect(printCall(['print'])).toBe('print');
    expect(printCall(['update-print-time'])).toBe('update-print-time');
    expect(printCall(['recall'])).toBeNull();
  });

  it('offers nothing the transitions do not name, however the report looks', () => {
    expect(buttons([])).toEqual([]);
    expect(buttons(['lock', 'unlock', 'force-unlock', 'assign'])).toEqual([]);
    expect(allows(['save'], 'submit')).toBe(false);
  });

  it('names the command that runs each button, so the button shows its shortcut', () => {
    expect(offeredActions(['cancelSubmit']).map((a) => a.commandId)).toEqual(['report.cancelSubmit']);
  });

  it('sends the text only with the actions that carry content', () => {
    const sends = offeredActions(['save', 'submit', 'approve', 'reject', 'advise', 'cancelSubmit', 'recall', 'print'])
      .filter((a) => a.sendsContent).map((a) => a.action);
    expect(sends).toEqual(['save', 'submit', 'approve', 'advise']);
  });

  it('reads editable and pending approval as core §4 defines them', () => {
    expect(isEditable(['save'])).toBe(true);
    expect(isEditable(['approve'])).toBe(true);
    expect(isEditable(['reject', 'print', 'lock'])).toBe(false);
    expect(isPendingApproval(['reject'])).toBe(true);
    expect(isPendingApproval(['save', 'submit'])).toBe(false);
  });
});

describe('local update after an answer', () => {
  const onScreen = reportView({ finding: '<p>approver typed this</p>', note: 'kept', version: 4, status: 'final', lifecycleStatus: 'final', transitions: ['approve', 'reject'] });
  const answer = reportView({
    id: 7, finding: '<p>server text</p>', note: 'server note', version: 5, status: 'hold', lifecycleStatus: 'hold', transitions: ['save'],
    creator: { id: 2, name: '李明' }, lastUpdater: { id: 4, name: '张建国' }, issuer: null, rejectReason: '结论不完整', recallReason: null,
    savedTime: '2030-01-01T00:00:00.000Z', lockedBy: 4,
  });

  it.each(['cancelSubmit', 'reject', 'recall', ''] as const)('after %s takes only the listed fields and the version', (action) => {
    const next = applyAnswer(onScreen, answer, action);
    for (const field of STATUS_FIELDS) expect(next[field]).toEqual(answer[field]);
    expect(next.version).toBe(5);
    expect(next.finding).toBe('<p>approver typed this</p>');
    expect(next.note).toBe('kept');
    expect(next.savedTime).toBe(onScreen.savedTime);
    expect(next.lifecycleStatus).toBe('final');
    expect(next.lockedBy).toBeNull();
  });

  it('after taking or releasing the lock changes the lock and status, never the text', () => {
    const locked = applyAnswer(onScreen, { ...answer, status: 'locked', lockedBy: 2, locker: { id: 2, name: '李明' } }, 'lock');
    expect(locked).toMatchObject({ status: 'locked', lockedBy: 2, version: 5, finding: '<p>approver typed this</p>', note: 'kept' });
  });

  it('after a save takes the report as the server stored it', () => {
    expect(applyAnswer(onScreen, answer, 'save')).toEqual(answer);
  });
});

describe('housekeeping from transitions (assign, remove assignment, force unlock, recover, reset, delete)', () => {
  const manage = (transitions: ReportAction[]) => offeredManageActions(transitions).map((a) => a.action);
  const CHIEF = ['exam_get', 'report_upsert', 'report_advice', 'report_print', 'report_trace', 'report_approval', 'report_recall', 'report_assign'];
  const RADIOLOGIST = ['exam_get', 'report_upsert', 'report_advice', 'report_print', 'report_trace'];
  const draft: ReportState = {
    status: 'partial', deleted: false, creatorId: 2, assigneeId: null, lockedById: null, allowAdvisorEdit: false,
    syncPending: false, syncStopped: false, mutable: true, hasImage: true,
  };

  it('offers each one only when its server action is in transitions, in menu order', () => {
    expect(manage(['save', 'submit', 'lock', 'reset', 'delete', 'assign', 'assign-remove'])).toEqual(['assign', 'assignRemove', 'reset', 'delete']);
    expect(manage(['recovery'])).toEqual(['recover']);
    expect(manage(['force-unlock', 'print'])).toEqual(['forceUnlock']);
    expect(allowsManage(['assign'], 'assignRemove')).toBe(false);
    expect(MANAGE_CALLS).toEqual({ assign: 'assign', assignRemove: 'assign-remove', forceUnlock: 'force-unlock', recover: 'recovery', reset: 'reset', delete: 'delete' });
  });

  it('never offers the lock, its release, sync or a reprint as housekeeping, and never mixes it into the buttons', () => {
    expect(manage(['lock', 'unlock', 'sync', 'update-print-time', 'save', 'submit'])).toEqual([]);
    expect(buttons(['assign', 'assign-remove', 'force-unlock', 'recovery', 'reset', 'delete'])).toEqual([]);
  });

  it('asks an account before assigning and a confirmation before reset and delete; marks what takes something away', () => {
    const offered = Object.fromEntries(offeredManageActions(['assign', 'assign-remove', 'force-unlock', 'recovery', 'reset', 'delete']).map((o) => [o.action, o]));
    expect(Object.fromEntries(Object.entries(offered).map(([k, o]) => [k, o.asks]))).toEqual({
      assign: 'account', assignRemove: null, forceUnlock: null, recover: null, reset: 'confirm', delete: 'confirm',
    });
    expect(Object.values(offered).filter((o) => o.danger).map((o) => o.action)).toEqual(['forceUnlock', 'reset', 'delete']);
    expect(offered.assign).toMatchObject({ commandId: 'report.assign', label: 'report.actions.assign' });
  });

  it('offers what the report machine allows: a chief on a draft, the writer, a deleted draft, someone else\'s lock', () => {
    const chief = { id: 4, actions: CHIEF };
    const rad1 = { id: 2, actions: RADIOLOGIST };
    const rad2 = { id: 3, actions: RADIOLOGIST };
    expect(manage(transitionsFor(draft, chief))).toEqual(['assign', 'reset', 'delete']);
    expect(manage(transitionsFor({ ...draft, assigneeId: 3 }, chief))).toEqual(['assign', 'assignRemove', 'reset', 'delete']);
    expect(manage(transitionsFor(draft, rad1))).toEqual(['reset', 'delete']);
    expect(manage(transitionsFor(draft, rad2))).toEqual([]);
    expect(manage(transitionsFor({ ...draft, deleted: true }, chief))).toEqual(['recover']);
    expect(manage(transitionsFor({ ...draft, lockedById: 2 }, chief))).toEqual(['forceUnlock']);
    expect(manage(transitionsFor({ ...draft, status: 'corrected', creatorId: 2 }, chief))).toEqual([]);
  });

  it('has a palette command for each, with no single-letter key in the editor and a shortcut only for assign', () => {
    for (const action of MANAGE_ACTIONS) expect(reportCommands.find((c) => c.id === `report.${action}`)?.label).toBe(`report.actions.${action}`);
    const keyed = reportCommands.filter((c) => MANAGE_ACTIONS.some((a) => c.id === `report.${a}`) && c.shortcut);
    expect(keyed.map((c) => [c.id, c.shortcut])).toEqual([['report.assign', '$mod+Shift+e']]);
    for (const command of reportCommands) if (command.shortcut && command.shortcut !== 'Escape') expect(isModified(command.shortcut)).toBe(true);
  });

  it('lets the commands run only what canManage allows, and runs it through manage', () => {
    const ran: string[] = [];
    const ctx = { canManage: (a: string) => a === 'reset', manage: (a: string) => ran.push(a) } as unknown as ReportCommandContext;
    const reset = reportCommands.find((c) => c.id === 'report.reset')!;
    const remove = reportCommands.find((c) => c.id === 'report.delete')!;
    expect([reset.when?.(ctx), remove.when?.(ctx)]).toEqual([true, false]);
    reset.run(ctx);
    expect(ran).toEqual(['reset']);
  });
});

describe('local update after housekeeping', () => {
  const onScreen = reportView({ finding: '<p>typed, not saved</p>', version: 4, transitions: ['save', 'submit', 'assign', 'reset', 'delete'] });

  it('after assign or its removal takes the status fields and the assignee, never the text', () => {
    const answer = reportView({ version: 5, finding: '<p>server</p>', assignee: { id: 3, name: '王芳' }, creator: { id: 3, name: '王芳' }, transitions: ['assign', 'assign-remove'] });
    const next = applyAnswer(onScreen, answer, 'assign');
    expect(next).toMatchObject({ version: 5, assignee: { id: 3, name: '王芳' }, creator: { id: 3, name: '王芳' }, transitions: ['assign', 'assign-remove'], finding: '<p>typed, not saved</p>' });
    expect(applyAnswer(next, reportView({ version: 6, assignee: null }), 'assign-remove')).toMatchObject({ version: 6, assignee: null, finding: '<p>typed, not saved</p>' });
  });

  it('after delete and recovery takes whether the report is listed, and keeps the text', () => {
    const deleted = applyAnswer(onScreen, reportView({ version: 5, deleted: true, deletedTime: '2026-11-21T00:00:00.000Z', transitions: ['recovery'], finding: '' }), 'delete');
    expect(deleted).toMatchObject({ deleted: true, deletedTime: '2026-11-21T00:00:00.000Z', transitions: ['recovery'], finding: '<p>typed, not saved</p>' });
    const back = applyAnswer(deleted, reportView({ version: 6, deleted: false, deletedTime: null, transitions: ['save'] }), 'recovery');
    expect(back).toMatchObject({ deleted: false, deletedTime: null, version: 6, transitions: ['save'] });
  });

  it('after a reset takes the cleared report whole (clearing the text is what it does)', () => {
    const cleared = reportView({ version: 5, status: 'none', lifecycleStatus: 'none', finding: '', diagnosis: '', savedTime: null });
    expect(applyAnswer(onScreen, cleared, 'reset')).toEqual(cleared);
  });
});
