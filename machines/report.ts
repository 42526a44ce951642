import { and, assign, not, or, raise, setup } from 'xstate';
import type { LifecycleStatus } from '../contract/reports';

/**
 * The report lifecycle (core §4, §6), once. The server resolves a snapshot from the database row and the
 * account, asks `can` for every action to build `transitions`, refuses anything else, and takes the next
 * status and facts from `transition`; the client renders from `transitions` and may run the same machine
 * for the workspace. docs/report-lifecycle.md has the diagram and the reasons for each choice.
 *
 * Two orthogonal regions while a report is listed: its lifecycle `status`, and the editing `lock`
 * (shown as status `locked`). A deleted report leaves the list and remembers where it was.
 */

/** Who acts: the account and its permitted actions in the report's organisation. */
export interface ReportActor {
  id: number;
  actions: readonly string[];
}

/** The facts the rules read, besides the status. */
export interface ReportContext {
  creatorId: number | null;
  assigneeId: number | null;
  lockedById: number | null;
  /** Core §6: ticked by the creator, lets an advisor without approval rights edit. */
  allowAdvisorEdit: boolean;
  /** Core §4: externally synced and not yet confirmed by a save. */
  syncPending: boolean;
  /** Core §4: confirmed once, so it no longer syncs. */
  syncStopped: boolean;
  /** Core §4: the upload target is absent or equals the source bucket. */
  mutable: boolean;
  hasImage: boolean;
  /**
   * The organisation's switch "a submitted report is final" (buckets.report_final_on_submit): submit issues the report
   * at once (status corrected, the writer its issuer), for an organisation without a second approver such as an expert
   * centre of one expert. Off everywhere else: two pairs of eyes on every issued report.
   */
  finalOnSubmit: boolean;
  /** The status a deleted report returns to on recovery. */
  deletedFrom: DeletableStatus | null;
}

export const DELETABLE_STATUSES = ['none', 'partial', 'hold'] as const satisfies readonly LifecycleStatus[];
export type DeletableStatus = (typeof DELETABLE_STATUSES)[number];

type By = { actor: ReportActor };
export type ReportEvent =
  | ({ type: 'save' | 'submit'; allowAdvisorEdit?: boolean } & By)
  | ({ type: 'approve' | 'cancelSubmit' | 'print' | 'update-print-time' } & By)
  | ({ type: 'reject' | 'recall'; reason: string } & By)
  | ({ type: 'advise'; reason?: string } & By)
  | ({ type: 'lock' | 'unlock' | 'force-unlock' | 'reset' | 'sync' | 'delete' | 'recovery' | 'assign-remove' } & By)
  | ({ type: 'assign'; accountId: number } & By)
  // Internal: the lifecycle region tells the lock region that a lock was taken or is over.
  | { type: 'lock.taken'; by: number }
  | { type: 'lock.released' };

const actorOf = (event: ReportEvent): ReportActor | null => ('actor' in event ? event.actor : null);
const may = (action: string) => ({ event }: { event: ReportEvent }) => actorOf(event)?.actions.includes(action) ?? false;

/** Assigning and unassigning, the same in every status that offers it. */
const ASSIGNING = {
  assign: { guard: 'canAssign', actions: 'setAssignee' },
  'assign-remove': { guard: 'canUnassign', actions: 'clearAssignee' },
} as const;

/** A rejected or recalled report written again: saved as a draft, or submitted (approved at once when the rules allow). */
const REWRITING = {
  save: { guard: 'canEditDraft', target: 'partial', actions: 'rememberAdvisorOption' },
  submit: [
    { guard: 'canResubmitFinal', target: 'corrected', actions: ['rememberAdvisorOption', 'releaseLock'] },
    { guard: 'canEditDraft', target: 'final', actions: ['rememberAdvisorOption', 'releaseLock'] },
  ],
  lock: { guard: 'canLockDraft', actions: 'takeLock' },
} as const;

/** A written draft (saved or rejected) thrown away: back to none, or deleted remembering where it was. */
const discarding = (status: 'partial' | 'hold') => ({
  reset: { guard: 'canDiscard', target: 'none', actions: ['forgetAuthorship', 'releaseLock'] },
  delete: { guard: 'canDiscard', target: '#report.deleted', actions: { type: 'rememberDeletedFrom', params: { status } } },
}) as const;

export const reportMachine = setup({
  types: {
    context: {} as ReportContext,
    events: {} as ReportEvent,
    input: {} as Partial<ReportContext>,
  },
  guards: {
    // Permissions in the report's organisation (core §6).
    mayWrite: may('report_upsert'),
    mayApprove: may('report_approval'),
    mayRecall: may('report_recall'),
    mayAdvise: may('report_advice'),
    mayPrint: may('report_print'),
    mayAssign: may('report_assign'),

    // Who the actor is to this report.
    isCreator: ({ context, event }) => context.creatorId !== null && context.creatorId === actorOf(event)?.id,
    hasNoCreator: ({ context }) => context.creatorId === null,
    isAssigneeOrUnassigned: ({ context, event }) => context.assigneeId === null || context.assigneeId === actorOf(event)?.id,
    hasAssignee: ({ context }) => context.assigneeId !== null,
    /** Core §6: only the creator edits; a report nobody wrote yet is started by its assignee, or by anyone when unassigned. */
    isWriter: or(['isCreator', and(['hasNoCreator', 'isAssigneeOrUnassigned'])]),

    // Core §4 facts.
    isLocker: ({ context, event }) => context.lockedById !== null && context.lockedById === actorOf(event)?.id,
    isUnlocked: ({ context }) => context.lockedById === null,
    /** Core §4: a locked report is edited only by its locker. */
    notLockedByOther: ({ context, event }) => context.lockedById === null || context.lockedById === actorOf(event)?.id,
    isMutable: ({ context }) => context.mutable,
    isSyncPending: ({ context }) => context.syncPending,
    isStillSyncing: ({ context }) => !context.syncStopped,
    advisorEditTicked: ({ context }) => context.allowAdvisorEdit,
    isFinalOnSubmit: ({ context }) => context.finalOnSubmit,
    /** Core §4: recall and reject each need a reason. */
    hasReason: ({ event }) => 'reason' in event && typeof event.reason === 'string' && event.reason.trim().length > 0,
    wasDeletedFrom: ({ context }, params: { status: DeletableStatus }) => context.deletedFrom === params.status,

    // The rules, named as §4 and §6 say them.
    ownsDraft: and(['isWriter', 'mayWrite']),
    canEditDraft: and(['ownsDraft', 'notLockedByOther', 'isMutable']),
    /** An externally synced report is read-only until confirmed by a save. */
    canSubmitDraft: and(['canEditDraft', not('isSyncPending')]),
    /** The organisation issues on submit: the writer's submit is the approval too. */
    canSubmitFinal: and(['canSubmitDraft', 'isFinalOnSubmit']),
    canResubmitFinal: and(['canEditDraft', 'isFinalOnSubmit']),
    canLockDraft: and(['isUnlocked', 'canSubmitDraft']),
    /** Approval is another person's: a creator never approves or rejects their own report. */
    canReview: and(['mayApprove', not('isCreator'), 'notLockedByOther', 'isMutable']),
    canReject: and(['canReview', 'hasReason']),
    canLockForReview: and(['isUnlocked', 'canReview']),
    canAdvise: and(['mayAdvise', not('isCreator'), 'notLockedByOther', 'isMutable']),
    /** Core §6: advice permission without approve or reject rights edits when the option is ticked. */
    canEditAsAdvisor: and(['advisorEditTicked', 'mayAdvise', not('mayApprove'), not('isCreator'), 'notLockedByOther', 'isMutable']),
    canLockAsAdvisor: and(['isUnlocked', 'canEditAsAdvisor']),
    canWithdraw: and(['isCreator', 'mayWrite', 'notLockedByOther', 'isMutable']),
    canRecall: and(['mayRecall', 'hasReason', 'isMutable']),
    canSync: and(['ownsDraft', 'isStillSyncing', 'notLockedByOther', 'isMutable']),
    /** Reset, delete and recovery: the draft's writer, or whoever distributes the work. */
    canDiscard: and([or(['ownsDraft', 'mayAssign']), 'notLockedByOther', 'isMutable']),
    canDiscardSynced: and(['canDiscard', 'isSyncPending']),
    canAssign: and(['mayAssign', 'notLockedByOther']),
    canUnassign: and(['canAssign', 'hasAssignee']),
    canForceUnlock: and(['mayAssign', not('isLocker')]),
  },
  actions: {
    /** The first writer becomes the creator. */
    becomeCreator: assign({ creatorId: ({ context, event }) => context.creatorId ?? actorOf(event)?.id ?? null }),
    rememberAdvisorOption: assign({
      allowAdvisorEdit: ({ context, event }) =>
        (event.type === 'save' || event.type === 'submit') && event.allowAdvisorEdit !== undefined ? event.allowAdvisorEdit : context.allowAdvisorEdit,
    }),
    /** Core §4: the confirming save ends the read-only phase and the syncing. */
    confirmSync: assign(({ context }) => (context.syncPending ? { syncPending: false, syncStopped: true } : {})),
    markSyncPending: assign({ syncPending: true }),
    forgetAuthorship: assign({ creatorId: null, syncPending: false, allowAdvisorEdit: false }),
    setAssignee: assign(({ context, event }) => {
      if (event.type !== 'assign') return {};
      // A draft already begun is handed over: only its creator may edit it (core §6).
      return { assigneeId: event.accountId, creatorId: context.creatorId === null ? null : event.accountId };
    }),
    clearAssignee: assign({ assigneeId: null }),
    takeLock: raise(({ event }) => ({ type: 'lock.taken' as const, by: actorOf(event)?.id ?? 0 })),
    releaseLock: raise({ type: 'lock.released' as const }),
    holdLock: assign({ lockedById: ({ event }) => (event.type === 'lock.taken' ? event.by : null) }),
    dropLock: assign({ lockedById: null }),
    rememberDeletedFrom: assign((_, params: { status: DeletableStatus }) => ({ deletedFrom: params.status, lockedById: null })),
    forgetDeletedFrom: assign({ deletedFrom: null }),
  },
}).createMachine({
  id: 'report',
  initial: 'listed',
  context: ({ input }) => ({
    creatorId: null, assigneeId: null, lockedById: null, allowAdvisorEdit: false, syncPending: false, syncStopped: false,
    mutable: true, hasImage: true, finalOnSubmit: false, deletedFrom: null, ...input,
  }),
  states: {
    listed: {
      type: 'parallel',
      states: {
        status: {
          initial: 'none',
          states: {
            /** Created with the exam's workspace, nothing written yet. */
            none: {
              on: {
                save: { guard: 'canEditDraft', target: 'partial', actions: ['becomeCreator', 'rememberAdvisorOption', 'confirmSync'] },
                submit: [
                  { guard: 'canSubmitFinal', target: 'corrected', actions: ['becomeCreator', 'rememberAdvisorOption', 'releaseLock'] },
                  { guard: 'canSubmitDraft', target: 'final', actions: ['becomeCreator', 'rememberAdvisorOption', 'releaseLock'] },
                ],
                lock: { guard: 'canLockDraft', actions: 'takeLock' },
                sync: { guard: 'canSync', actions: 'markSyncPending' },
                reset: { guard: 'canDiscardSynced', actions: 'forgetAuthorship' },
                delete: { guard: 'canDiscard', target: '#report.deleted', actions: { type: 'rememberDeletedFrom', params: { status: 'none' } } },
                ...ASSIGNING,
              },
            },
            /** A saved draft. */
            partial: {
              on: {
                save: { guard: 'canEditDraft', target: 'partial', actions: ['rememberAdvisorOption', 'confirmSync'] },
                submit: [
                  { guard: 'canSubmitFinal', target: 'corrected', actions: ['rememberAdvisorOption', 'releaseLock'] },
                  { guard: 'canSubmitDraft', target: 'final', actions: ['rememberAdvisorOption', 'releaseLock'] },
                ],
                lock: { guard: 'canLockDraft', actions: 'takeLock' },
                sync: { guard: 'canSync', actions: 'markSyncPending' },
                ...discarding('partial'),
                ...ASSIGNING,
              },
            },
            /** Submitted, waiting for approval. */
            final: {
              on: {
                // The approver may edit before approving; an advisor's edit turns the report into advice.
                save: [
                  { guard: 'canReview', target: 'final' },
                  { guard: 'canEditAsAdvisor', target: 'advised' },
                ],
                approve: { guard: 'canReview', target: 'corrected', actions: 'releaseLock' },
                reject: { guard: 'canReject', target: 'hold', actions: 'releaseLock' },
                advise: { guard: 'canAdvise', target: 'advised', actions: 'releaseLock' },
                cancelSubmit: { guard: 'canWithdraw', target: 'partial' },
                lock: { guard: or(['canLockForReview', 'canLockAsAdvisor']), actions: 'takeLock' },
              },
            },
            /** Submitted with advice: the creator revises, or the approver decides. */
            advised: {
              on: {
                save: [
                  { guard: 'canEditDraft', target: 'partial', actions: 'rememberAdvisorOption' },
                  { guard: or(['canReview', 'canEditAsAdvisor']), target: 'advised' },
                ],
                submit: [
                  { guard: 'canResubmitFinal', target: 'corrected', actions: ['rememberAdvisorOption', 'releaseLock'] },
                  { guard: 'canEditDraft', target: 'final', actions: ['rememberAdvisorOption', 'releaseLock'] },
                ],
                approve: { guard: 'canReview', target: 'corrected', actions: 'releaseLock' },
                reject: { guard: 'canReject', target: 'hold', actions: 'releaseLock' },
                advise: { guard: 'canAdvise', target: 'advised', actions: 'releaseLock' },
                lock: { guard: or(['canLockDraft', 'canLockForReview', 'canLockAsAdvisor']), actions: 'takeLock' },
              },
            },
            /** Approved: issued to the patient. */
            corrected: {
              on: {
                print: { guard: 'mayPrint', target: 'printed' },
                recall: { guard: 'canRecall', target: 'cancelled' },
              },
            },
            printed: {
              on: {
                'update-print-time': { guard: 'mayPrint', target: 'printed' },
                recall: { guard: 'canRecall', target: 'cancelled' },
              },
            },
            /** Rejected: back to the creator with the reason. */
            hold: {
              on: {
                ...REWRITING,
                ...discarding('hold'),
                ...ASSIGNING,
              },
            },
            /** Recalled after issue: corrected and issued again, never discarded (reset and delete are not offered). */
            cancelled: {
              on: {
                ...REWRITING,
                ...ASSIGNING,
              },
            },
          },
        },
        lock: {
          initial: 'unlocked',
          states: {
            unlocked: { on: { 'lock.taken': { target: 'locked', actions: 'holdLock' } } },
            /** Being edited (core §4 status `locked`). */
            locked: {
              on: {
                unlock: { guard: 'isLocker', target: 'unlocked', actions: 'dropLock' },
                'force-unlock': { guard: 'canForceUnlock', target: 'unlocked', actions: 'dropLock' },
                'lock.released': { target: 'unlocked', actions: 'dropLock' },
              },
            },
          },
        },
      },
    },
    /** Removed from the exam's list; recovery puts it back where it was. */
    deleted: {
      on: {
        recovery: DELETABLE_STATUSES.map((status) => ({
          guard: and([{ type: 'wasDeletedFrom' as const, params: { status } }, 'canDiscard']),
          target: `#report.listed.status.${status}`,
          actions: 'forgetDeletedFrom' as const,
        })),
      },
    },
  },
});

export type ReportMachine = typeof reportMachine;
