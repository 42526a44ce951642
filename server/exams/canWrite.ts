import { LIFECYCLE_STATUSES } from '../../contract/reports';
import { isAllowed, type ReportState } from '../../machines/reportTransitions';
import type { Access } from '../access/access';
import { stateFromRow, type ReportFacts } from '../reports/load';

/**
 * `canWrite` of a worklist row without asking the report machine per row (resolving a machine snapshot was most of a
 * row's own cost): the machine's answer to `save` depends only on a few facts of the row, each reduced to what the
 * machine's guards can tell apart, so its answers fit a small table filled from the machine itself.
 * - the lifecycle status (8), whether the report is deleted, whether it is mutable (core §4);
 * - who the creator, the assignee and the locker are *to the caller*: nobody, the caller, someone else;
 * - the advisor-edit option;
 * - of the caller's rights in the exam's organisation, the three the `save` guards read: report_upsert,
 *   report_approval, report_advice.
 * Each entry is the machine's answer for one representative row of its facts (caller 1, someone else 2), asked the
 * first time that combination is met (at most 8 × 2 × 2 × 27 × 2 × 8 = 13,824 entries). The facts left out
 * (syncPending, syncStopped, hasImage, other rights, which other person) do not change the answer:
 * tests/unit/exams.canWriteTable.test.ts compares the table with the machine over every combination, so a rule that
 * starts reading one of them fails there instead of drifting.
 */
export const SAVE_RIGHTS = ['report_upsert', 'report_approval', 'report_advice'] as const;

const ME = 1;
const SOMEONE_ELSE = 2;
const STATUS_INDEX = new Map<string, number>(LIFECYCLE_STATUSES.map((s, i) => [s, i]));
const table = new Map<number, boolean>();

/** 0 nobody, 1 the caller, 2 someone else. */
function relation(id: number | null, me: number): number {
  return id === null ? 0 : id === me ? 1 : 2;
}
const representative = (rel: number) => (rel === 0 ? null : rel === 1 ? ME : SOMEONE_ELSE);

/** The caller's save-relevant rights in one organisation as three bits (the table's last index). */
export function saveRightsOf(actions: ReadonlySet<string> | undefined): number {
  if (!actions) return 0;
  let bits = 0;
  SAVE_RIGHTS.forEach((right, i) => { if (actions.has(right)) bits |= 1 << i; });
  return bits;
}

/** The table's answer for `state` and a caller with these rights (bits of SAVE_RIGHTS). */
export function canSave(state: ReportState, accountId: number, rights: number): boolean {
  const status = STATUS_INDEX.get(state.status);
  // A status the machine does not know (a row written by hand): ask the machine itself.
  if (status === undefined) return isAllowed(state, { id: accountId, actions: SAVE_RIGHTS.filter((_, i) => rights & (1 << i)) }, 'save');
  const creator = relation(state.creatorId, accountId);
  const assignee = relation(state.assigneeId, accountId);
  const locker = relation(state.lockedById, accountId);
  const key = ((((((status * 2 + +state.deleted) * 2 + +state.mutable) * 3 + creator) * 3 + assignee) * 3 + locker) * 2 + +state.allowAdvisorEdit) * 8 + rights;
  let answer = table.get(key);
  if (answer === undefined) {
    answer = isAllowed({
      status: state.status, deleted: state.deleted, mutable: state.mutable, allowAdvisorEdit: state.allowAdvisorEdit,
      creatorId: representative(creator), assigneeId: representative(assignee), lockedById: representative(locker),
      syncPending: false, syncStopped: false, hasImage: true,
    }, { id: ME, actions: SAVE_RIGHTS.filter((_, i) => rights & (1 << i)) }, 'save');
    table.set(key, answer);
  }
  return answer;
}

/** Whether `access` may write a row's report now, or start one (report_upsert) when it has none. */
export function canWriteFacts(access: Access, bucketId: number, exam: { reportId: number | null; targetBucketId: number | null; hasImage: boolean }, facts: { [K in keyof ReportFacts]: ReportFacts[K] | null } | null): boolean {
  const rights = saveRightsOf(access.buckets.get(bucketId)?.actions);
  if (exam.reportId === null || !facts || facts.status === null) return (rights & 1) !== 0;
  return canSave(stateFromRow(facts as ReportFacts, exam), access.accountId, rights);
}
