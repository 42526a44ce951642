import type { ReportView } from '../../contract/reports';

/** A report answer as the server gives it, with the fields a test cares about overridden. */
export function reportView(over: Partial<ReportView> = {}): ReportView {
  return {
    id: 7, examId: 70, bucketId: 1, sourceBucketId: 1, type: 'report', status: 'partial', lifecycleStatus: 'partial',
    transitions: ['save', 'submit', 'lock'], version: 3,
    creator: { id: 2, name: '李明' }, lastUpdater: { id: 2, name: '李明' }, issuer: null, noteTaker: null, assignee: null,
    lockedBy: null, locker: null, lockedAt: null, rejectReason: null, recallReason: null, adviceReason: null,
    finding: '<p>双肺纹理清晰。</p>', diagnosis: '<p>胸部未见明显异常。</p>', positive: false, note: null, bodypartCount: 1,
    criticalValue: null, extensions: {}, allowAdvisorEdit: false, syncPending: false, syncStopped: false, mutable: true,
    noteTakerOrigin: false, jointExamIds: [], deleted: false, deletedTime: null, savedTime: '2026-11-20T02:00:00.000Z',
    submittedTime: null, approvedTime: null, printedTime: null, printSubmittedAt: null, printApprovedAt: null,
    lastOperationTime: '2026-11-20T02:00:00.000Z', created: '2026-11-20T01:00:00.000Z',
    ...over,
  };
}
