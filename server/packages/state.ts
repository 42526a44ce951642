import { eq, sql } from 'drizzle-orm';
import { transition } from 'xstate';
import {
  packageSnapshot, studyPackageMachine, type StudyPackageContext, type StudyPackageEvent, type StudyPackageSnapshot, type StudyPackageState,
} from '../../machines/studyPackage';
import type { Db } from '../db/client';
import { studyPackages } from '../db/schema';

export type PackageRow = typeof studyPackages.$inferSelect;

const ms = (d: Date | null) => (d ? d.getTime() : null);

/** The machine's view of a stored row (or of no row: state none). */
export function snapshotOfRow(row: PackageRow | undefined, now: number): StudyPackageSnapshot {
  if (!row) return studyPackageMachine.resolveState({ value: 'none', context: { startedAt: null, readyAt: null, expiresAt: null, now } });
  const context: StudyPackageContext = { startedAt: ms(row.startedAt), readyAt: ms(row.readyAt), expiresAt: ms(row.expiresAt), now };
  return packageSnapshot(row.state as StudyPackageState, context);
}

/** The state after `event`, or null when the machine does not take it in this state. */
export function step(snapshot: StudyPackageSnapshot, event: StudyPackageEvent): StudyPackageSnapshot | null {
  if (!snapshot.can(event)) return null;
  return transition(studyPackageMachine, snapshot, event)[0];
}

/** What a stored row is now: its state once the time that passed is told to the machine. */
export function currentState(row: PackageRow | undefined, now: number): StudyPackageState {
  const snapshot = snapshotOfRow(row, now);
  return (step(snapshot, { type: 'TICK', now }) ?? snapshot).value as StudyPackageState;
}

/** One exam's package decisions run one at a time, across API processes. */
export async function lockPackage(tx: Db, examId: number): Promise<PackageRow | undefined> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`study-package:${examId}`}))`);
  const [row] = await tx.select().from(studyPackages).where(eq(studyPackages.examId, examId));
  return row;
}

/** The row's columns for a snapshot. */
export function rowFields(snapshot: StudyPackageSnapshot) {
  const c = snapshot.context;
  return {
    state: snapshot.value as StudyPackageState,
    startedAt: new Date(c.startedAt ?? c.now),
    readyAt: c.readyAt === null ? null : new Date(c.readyAt),
    expiresAt: c.expiresAt === null ? null : new Date(c.expiresAt),
  };
}
