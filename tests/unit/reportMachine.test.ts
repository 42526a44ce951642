import { describe, expect, it } from 'vitest';
import { isBlankReportHtml, reportHtmlToText, sanitizeReportHtml } from '../../contract/reportHtml';
import {
  applyEvent, eventFor, isNoteTakerOrigin, mayPrintNow, presentedStatus, refusalFor, transitionsFor, type ReportState,
} from '../../machines/reportTransitions';

/** The lifecycle rules (core §4, §6) asked of machines/report.ts directly. */
const writer = { id: 1, actions: ['report_upsert', 'report_advice', 'report_print', 'report_trace'] };
const colleague = { id: 2, actions: writer.actions };
const approver = { id: 3, actions: [...writer.actions, 'report_approval', 'report_recall', 'report_assign'] };
const advisor = { id: 4, actions: ['report_advice'] };
const reader = { id: 5, actions: ['exam_get'] };

const draft = (over: Partial<ReportState> = {}): ReportState => ({
  status: 'partial', deleted: false, creatorId: writer.id, assigneeId: null, lockedById: null, allowAdvisorEdit: false,
  syncPending: false, syncStopped: false, mutable: true, hasImage: true, ...over,
});

describe('report machine', () => {
  it('lets only the creator edit a draft; a colleague may advise nothing on a draft', () => {
    expect(transitionsFor(draft(), writer)).toEqual(['save', 'submit', 'lock', 'reset', 'sync', 'delete']);
    expect(transitionsFor(draft(), colleague)).toEqual([]);
    expect(refusalFor(draft(), colleague, 'save')).toBe('Forbidden');
  });

  it('refuses approve to the report\'s own creator and offers it to another approver', () => {
    const mine = draft({ status: 'final', creatorId: approver.id });
    expect(transitionsFor(mine, approver)).toEqual(['cancelSubmit']);
    expect(refusalFor(mine, approver, 'approve')).toBe('Forbidden');
    expect(transitionsFor(draft({ status: 'final' }), approver)).toEqual(['save', 'approve', 'reject', 'advise', 'lock']);
  });

  it('issues on submit in an organisation that says so (the writer is the issuer), and only there', () => {
    for (const status of ['none', 'partial', 'hold', 'cancelled', 'advised'] as const) {
      const own = draft({ status, creatorId: status === 'none' ? null : writer.id, finalOnSubmit: true });
      expect(applyEvent(own, eventFor('submit', writer))?.status, status).toBe('corrected');
      expect(applyEvent({ ...own, finalOnSubmit: false }, eventFor('submit', writer))?.status, status).toBe('final');
    }
    // Nothing else changes: a locked report, an unconfirmed sync and other people are refused as before.
    expect(applyEvent(draft({ finalOnSubmit: true, lockedById: colleague.id }), eventFor('submit', writer))).toBeNull();
    expect(applyEvent(draft({ finalOnSubmit: true, syncPending: true }), eventFor('submit', writer))).toBeNull();
    expect(applyEvent(draft({ finalOnSubmit: true }), eventFor('submit', colleague))).toBeNull();
    // Issued, it is recalled and printed like any approved report; cancelSubmit has nothing to withdraw.
    const issued = applyEvent(draft({ finalOnSubmit: true }), eventFor('submit', writer))!;
    expect(transitionsFor(issued, writer)).toEqual(['print']);
    expect(transitionsFor(issued, approver)).toEqual(['recall', 'print']);
  });

  it('lets an advisor without approval rights edit only when the option is ticked, turning the report into advice', () => {
    expect(transitionsFor(draft({ status: 'final' }), advisor)).toEqual(['advise']);
    const ticked = draft({ status: 'final', allowAdvisorEdit: true });
    expect(transitionsFor(ticked, advisor)).toEqual(['save', 'advise', 'lock']);
    expect(applyEvent(ticked, eventFor('save', advisor))?.status).toBe('advised');
  });

  it('edits a locked report only by its locker, and says so to the others', () => {
    const locked = draft({ lockedById: writer.id });
    expect(presentedStatus(locked)).toBe('locked');
    expect(transitionsFor(locked, writer)).toEqual(['save', 'submit', 'unlock', 'reset', 'sync', 'delete']);
    expect(transitionsFor(locked, approver)).toEqual(['force-unlock']);
    expect(refusalFor(locked, approver, 'assign')).toBe('ReportLocked');
    expect(applyEvent(locked, eventFor('save', writer))).toMatchObject({ lockedById: writer.id, status: 'partial' });
    expect(applyEvent(locked, eventFor('submit', writer))).toMatchObject({ lockedById: null, status: 'final' });
  });

  it('needs a reason to reject and to recall', () => {
    expect(applyEvent(draft({ status: 'final' }), { type: 'reject', actor: approver, reason: ' ' })).toBeNull();
    expect(applyEvent(draft({ status: 'corrected' }), { type: 'recall', actor: approver, reason: '' })).toBeNull();
    expect(applyEvent(draft({ status: 'corrected' }), { type: 'recall', actor: approver, reason: '更正' })?.status).toBe('cancelled');
  });

  it('prints only a corrected report, and reprints a printed one', () => {
    expect(applyEvent(draft({ status: 'corrected' }), eventFor('print', writer))?.status).toBe('printed');
    expect(transitionsFor(draft({ status: 'printed' }), writer)).toEqual(['update-print-time']);
    expect(mayPrintNow(draft({ status: 'final' }), approver)).toBe(false);
    expect(mayPrintNow(draft({ status: 'corrected' }), reader)).toBe(false);
    expect(refusalFor(draft({ status: 'final' }), writer, 'print')).toBe('InvalidTransition');
  });

  it('keeps an externally synced report read-only until a save confirms it, then stops syncing', () => {
    const synced = applyEvent(draft({ status: 'none', creatorId: null }), eventFor('sync', writer))!;
    expect(synced.syncPending).toBe(true);
    expect(transitionsFor(synced, writer)).toEqual(['save', 'reset', 'sync', 'delete']);
    const confirmed = applyEvent(synced, eventFor('save', writer))!;
    expect(confirmed).toMatchObject({ status: 'partial', syncPending: false, syncStopped: true, creatorId: writer.id });
    expect(transitionsFor(confirmed, writer)).not.toContain('sync');
  });

  it('is immutable when the upload target is another bucket, except for printing and assignment', () => {
    expect(transitionsFor(draft({ mutable: false }), writer)).toEqual([]);
    expect(transitionsFor(draft({ mutable: false }), approver)).toEqual(['assign']);
    expect(transitionsFor(draft({ status: 'corrected', mutable: false }), approver)).toEqual(['print']);
  });

  it('recovers a deleted draft to the status it was deleted from', () => {
    const deleted = applyEvent(draft({ status: 'hold', lockedById: writer.id }), eventFor('delete', writer))!;
    expect(deleted).toMatchObject({ deleted: true, status: 'hold', lockedById: null });
    expect(transitionsFor(deleted, writer)).toEqual(['recovery']);
    expect(applyEvent(deleted, eventFor('recovery', approver))).toMatchObject({ deleted: false, status: 'hold' });
    expect(transitionsFor(draft({ status: 'cancelled' }), writer)).not.toContain('delete');
  });

  it('hands a begun draft to the assignee and lets only the assignee start an unbegun one', () => {
    expect(applyEvent(draft(), { type: 'assign', actor: approver, accountId: colleague.id })).toMatchObject({ assigneeId: colleague.id, creatorId: colleague.id });
    const assigned = applyEvent(draft({ status: 'none', creatorId: null }), { type: 'assign', actor: approver, accountId: colleague.id })!;
    expect(assigned.creatorId).toBeNull();
    expect(transitionsFor(assigned, writer)).toEqual([]);
    expect(applyEvent(assigned, eventFor('save', colleague))?.creatorId).toBe(colleague.id);
  });

  it('counts status none without images as note-taker origin', () => {
    expect(isNoteTakerOrigin(draft({ status: 'none', hasImage: false }))).toBe(true);
    expect(isNoteTakerOrigin(draft({ status: 'none' }))).toBe(false);
    expect(isNoteTakerOrigin(draft({ status: 'partial', hasImage: false }))).toBe(false);
  });

  it('offers nothing to a reader without report rights', () => {
    for (const status of ['none', 'partial', 'final', 'corrected', 'printed', 'hold', 'cancelled', 'advised'] as const) {
      expect(transitionsFor(draft({ status }), reader)).toEqual([]);
    }
  });
});

describe('report HTML helpers', () => {
  it('reads the visible text, one line per block', () => {
    expect(reportHtmlToText('<p>双肺纹理清晰</p><p>心影&nbsp;正常 &lt;5mm</p><ul><li>一</li><li>二</li></ul>')).toBe('双肺纹理清晰\n心影 正常 <5mm\n一\n二');
  });
  it('treats markup without text as empty', () => {
    expect(isBlankReportHtml('<p> </p><p><br></p><p>&nbsp;　</p>')).toBe(true);
    expect(isBlankReportHtml('<p>无</p>')).toBe(false);
    expect(isBlankReportHtml('<script>alert(1)</script>')).toBe(true);
  });
  it('is idempotent, so cleaning again on render changes nothing', () => {
    const once = sanitizeReportHtml('<p style="text-align: right; position: fixed" onclick="x()"><b>a</b><a href="https://x.test">l</a></p>');
    expect(sanitizeReportHtml(once)).toBe(once);
  });
});
