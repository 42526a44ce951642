import { and } from 'xstate';
import { announceDone, answerLeaving, callServer, dropDraft, keepDraft, workspaceSetup } from './reportModel/workspaceSetup';

export * from './reportModel/workspaceTypes';
export { currentFields, holdsLock, sideOf } from './reportModel/workspaceSetup';

/**
 * The report workspace screen (core §2, §4): loading the report, editing with a local draft, running one action
 * at a time (saving included), the dialogs an action asks through, and how a refused call leaves the page
 * (conflict, expired session, someone else's lock). Pure rules: the environment supplies the effects by name
 * (src/features/report/workspace/useReportWorkspace.ts): the calls (requestReport, requestAction, requestLock,
 * requestRefresh), each answered with an event, and the local draft, toasts, focus, printing and leaving.
 * Calls are effects plus answer events rather than invoked actors so that `createTestModel` can walk every path.
 */
export const reportWorkspaceMachine = workspaceSetup.createMachine({
  id: 'reportWorkspace',
  context: ({ input }) => ({
    userId: input.userId, report: null, loadError: null, text: { finding: '', diagnosis: '' }, side: null, allowAdvisorEdit: false,
    start: { text: { finding: '', diagnosis: '' }, key: 0 }, saved: null, base: { version: 0, savedTime: null }, dirty: false,
    savedAt: null, problems: [], notice: null, draft: { kind: 'none' }, draftsKept: true, lockAsked: false,
    reasonFor: null, joint: null, confirming: null, pending: null,
  }),
  initial: 'loading',
  on: {
    // Typing goes on in every state: the editors stay mounted (also under the "Login expired" modal).
    EDITED: { actions: ['rememberText', 'noteTextChanged'] },
    SIDE_CHANGED: { guard: 'hasSideFields', actions: ['rememberSide', 'noteTextChanged'] },
    TEXT_CHANGED: [
      { guard: 'hasNothingSaved' },
      { guard: 'hasNothingUnsaved', actions: ['markClean', 'recheckProblems', dropDraft] },
      { guard: 'needsLock', actions: ['markDirty', 'recheckProblems', keepDraft, 'markLockAsked', 'requestLock'] },
      { actions: ['markDirty', 'recheckProblems', keepDraft] },
    ],
    ADVISOR_EDIT_SET: { actions: 'rememberAdvisorEdit' },
    DISMISS_NOTICE: { actions: 'clearNotice' },
    DRAFT_STORED: { actions: 'rememberDraftsKept' },
    LOCK_TAKEN: { actions: 'takeLockAnswer' },
    LOCK_FAILED: [
      { guard: 'sessionEnded', actions: 'forgetLockAsked' },
      // Someone else took it first: say why the page turned read-only; the typed words stay in the draft.
      { guard: 'lockedByOther', actions: ['forgetLockAsked', 'showLockRefusal', 'requestRefresh'] },
      { actions: ['forgetLockAsked', 'requestRefresh'] },
    ],
    REFRESHED: { actions: 'takeRefresh' },
    SAVE_BEFORE_LEAVING: [
      { guard: 'hasNothingUnsaved', actions: { type: 'settleLeave', params: { ok: true } } },
      // Busy or not allowed to save: the user decides again.
      { actions: { type: 'settleLeave', params: { ok: false } } },
    ],
  },
  states: {
    loading: {
      entry: 'requestReport',
      on: {
        LOADED: [
          { guard: 'draftSaysWhatServerHas', target: 'open.idle', actions: ['adopt', 'noDraftOffer', dropDraft] },
          { guard: 'offersDraft', target: 'open.decidingDraft', actions: ['adopt', 'offerDraft'] },
          { target: 'open.idle', actions: ['adopt', 'noDraftOffer'] },
        ],
        LOAD_FAILED: { target: 'failed', actions: 'rememberLoadError' },
      },
    },
    failed: {
      on: { RELOAD: { target: 'loading', actions: 'clearLoadError' } },
    },
    open: {
      initial: 'idle',
      on: {
        ACTION_DONE: [
          { guard: 'isResetCall', target: '.idle', actions: ['takeAnswer', 'adoptReset', dropDraft, 'forgetLockAsked', announceDone, 'finishCall'] },
          { guard: 'isDeleteCall', target: '.idle', actions: ['takeAnswer', dropDraft, 'forgetLockAsked', announceDone, 'leave', 'finishCall'] },
          { guard: 'isManageCall', target: '.idle', actions: ['takeAnswer', 'forgetLockAsked', announceDone, 'finishCall'] },
          { guard: and(['sentText', 'typedWhileSending']), target: '.idle', actions: ['takeAnswer', 'markSentTextSaved', keepDraft, announceDone, 'forgetLockAsked', answerLeaving, 'finishCall'] },
          { guard: 'sentText', target: '.idle', actions: ['takeAnswer', 'markSentTextSaved', dropDraft, announceDone, 'forgetLockAsked', answerLeaving, 'finishCall'] },
          { guard: and(['isCalling', 'answerIsReadOnly']), target: '.idle', actions: ['takeAnswer', 'markClean', announceDone, 'forgetLockAsked', answerLeaving, 'finishCall'] },
          { guard: 'isCalling', target: '.idle', actions: ['takeAnswer', announceDone, 'forgetLockAsked', answerLeaving, 'finishCall'] },
        ],
        ACTION_FAILED: [
          // "Login expired" handles it; the text stays (and in the draft), and is saved after signing in again.
          { guard: and(['isCalling', 'sessionEnded']), target: '.idle.sessionExpired', actions: [answerLeaving, 'finishCall'] },
          { guard: 'jointExamsPending', target: '.askingJoint', actions: ['askJoint', answerLeaving, 'finishCall'] },
          { guard: and(['isCalling', 'isConflict']), target: '.idle.conflict', actions: ['requestRefresh', 'showFailure', answerLeaving, 'finishCall'] },
          { guard: and(['isCalling', 'isRefusal']), target: '.idle', actions: ['requestRefresh', 'showFailure', answerLeaving, 'finishCall'] },
          { guard: and(['isCalling', 'isReportEmpty']), target: '.idle', actions: ['markReportEmpty', 'focusFinding', 'showFailure', answerLeaving, 'finishCall'] },
          { guard: 'isCalling', target: '.idle', actions: ['showFailure', answerLeaving, 'finishCall'] },
        ],
      },
      states: {
        /** A local draft differs from the server's text: restore or discard it before anything else. */
        decidingDraft: {
          on: {
            // The editors and fields are read-only until the draft is restored or discarded.
            EDITED: {},
            SIDE_CHANGED: {},
            RESTORE_DRAFT: { target: 'idle', actions: ['restoreDraft', 'noteTextChanged'] },
            DISCARD_DRAFT: { target: 'idle', actions: ['noDraftOffer', dropDraft] },
          },
        },
        idle: {
          initial: 'editing',
          on: {
            RUN: [
              { guard: and(['isAllowed', 'isPrint']), actions: 'print' },
              { guard: and(['isAllowed', 'failsChecks', 'leavesReportEmpty']), actions: ['showProblems', 'focusFinding'] },
              { guard: and(['isAllowed', 'failsChecks']), actions: 'showProblems' },
              { guard: and(['isAllowed', 'needsReason']), target: 'askingReason', actions: ['recordChecks', 'askReason'] },
              { guard: 'isAllowed', target: 'running', actions: ['recordChecks', 'startAction', callServer] },
            ],
            MANAGE: [
              { guard: and(['isManageAllowed', 'asksAccount']), target: 'assigning' },
              { guard: and(['isManageAllowed', 'asksConfirmation']), target: 'confirming', actions: 'askConfirmation' },
              { guard: 'isManageAllowed', target: 'running', actions: ['startManage', callServer] },
            ],
            // The conflict notice's "Reload" (it dismisses the notice first): the report as stored now; the text stays in the draft.
            RELOAD: { target: '#reportWorkspace.loading', actions: 'clearNotice' },
            SAVE_BEFORE_LEAVING: [
              { guard: 'hasNothingUnsaved', actions: { type: 'settleLeave', params: { ok: true } } },
              { guard: 'offersSave', target: 'running', actions: ['startAction', callServer] },
              { actions: { type: 'settleLeave', params: { ok: false } } },
            ],
          },
          states: {
            editing: {},
            /** Someone saved the report meanwhile (409 VersionConflict): the notice offers to load it again; the text is in the draft. */
            conflict: {
              on: {
                // A newer refusal replaces the conflict's notice (and its offer to reload).
                LOCK_FAILED: { guard: 'lockedByOther', target: 'editing', actions: ['forgetLockAsked', 'showLockRefusal', 'requestRefresh'] },
                DISMISS_NOTICE: { target: 'editing', actions: 'clearNotice' },
              },
            },
            /** A call met an ended token: the "Login expired" modal is up, the text stays here and in the draft. */
            sessionExpired: {},
          },
        },
        askingReason: {
          on: {
            REASON_GIVEN: [
              { guard: 'reasonStillAllowed', target: 'running', actions: ['startAction', 'closeReason', callServer] },
              { target: 'idle', actions: 'closeReason' },
            ],
            REASON_CANCELLED: { target: 'idle', actions: 'closeReason' },
          },
        },
        askingJoint: {
          on: {
            JOINT_DECIDED: [
              { guard: 'submitStillAllowed', target: 'running', actions: ['closeJoint', 'startAction', callServer] },
              { target: 'idle', actions: 'closeJoint' },
            ],
            JOINT_CANCELLED: { target: 'idle', actions: 'closeJoint' },
          },
        },
        /** The assign dialog; it stays open while the assignment is sent, and closes whatever the answer. */
        assigning: {
          initial: 'choosing',
          on: { MANAGE_CANCELLED: { target: 'idle' } },
          states: {
            choosing: {
              on: {
                ASSIGN_TO: [
                  { guard: 'assignStillAllowed', target: 'sending', actions: ['startManage', callServer] },
                  { target: '#reportWorkspace.open.idle' },
                ],
              },
            },
            sending: {
              on: {
                MANAGE_CANCELLED: { target: '#reportWorkspace.open.running' },
              },
            },
          },
        },
        /** A reset or delete waiting for its confirmation; the dialog stays while the call runs. */
        confirming: {
          initial: 'asking',
          on: { MANAGE_CANCELLED: { target: 'idle', actions: 'closeConfirmation' } },
          states: {
            asking: {
              on: {
                MANAGE_CONFIRMED: [
                  { guard: 'confirmedStillAllowed', target: 'sending', actions: ['startManage', callServer] },
                  { target: '#reportWorkspace.open.idle', actions: 'closeConfirmation' },
                ],
              },
            },
            sending: {
              on: {
                MANAGE_CANCELLED: { target: '#reportWorkspace.open.running', actions: 'closeConfirmation' },
              },
            },
          },
        },
        /** One call at a time (saving included); `pending` says which. */
        running: {},
      },
    },
  },
});
