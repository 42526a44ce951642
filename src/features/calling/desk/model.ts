import type { MppsProgress } from '../../../../contract/mpps';
import type { Column } from '../board';

/** A patient in a queue as the operator screen draws it. */
export interface DeskEntry {
  id: number;
  queueKey: string;
  number: string;
  /** Full or masked, as the server gives it for this operator. */
  name: string;
  exam: string;
  state: 'waiting' | 'called' | 'passed';
  checkedInAt: string | null;
  calledAt: string | null;
  calls: number;
  /** The modality's progress on the exam (MPPS): who is scanning the patient, or that the scan is done. */
  mpps?: MppsProgress | null;
}

/** One queue (a column): its type's words, the called patient, the waiting list in order and the missed area. */
export interface DeskQueue {
  key: string;
  id: number;
  name: string;
  prefix: string;
  room: string | null;
  modality: string | null;
  current: DeskEntry | null;
  /** The first waiting patients in order (the server's window, BOARD_WINDOW) and the first missed ones. */
  waiting: DeskEntry[];
  missed: DeskEntry[];
  /** How many wait and how many missed their call in all (the lists above are a window of them). */
  waitingCount: number;
  missedCount: number;
}

/** The screen order of a queue's patients: the called one, the waiting list, the missed area. */
export function entriesOf(queue: DeskQueue): DeskEntry[] {
  return [...(queue.current ? [queue.current] : []), ...queue.waiting, ...queue.missed];
}

export function columnsOf(queues: readonly DeskQueue[], visible: (entry: DeskEntry) => boolean = () => true): Column[] {
  return queues.map((q) => ({ key: q.key, ids: entriesOf(q).filter(visible).map((e) => e.id) }));
}

/** Whether an entry matches the operator's search: number, name or exam, case and width of spaces aside. */
export function matches(entry: DeskEntry, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return [entry.number, entry.name, entry.exam].some((field) => field.toLowerCase().includes(q));
}

/**
 * What the keys act on in a queue: the picked patient, else the called one. R and D need a called patient; P a called
 * or waiting one; U a passed one; Delete anyone.
 */
export function targetOf(queue: DeskQueue | undefined, pickedId: number | null): DeskEntry | null {
  if (!queue) return null;
  const picked = pickedId === null ? null : entriesOf(queue).find((e) => e.id === pickedId) ?? null;
  return picked ?? queue.current;
}

export function abilities(target: DeskEntry | null) {
  return {
    pass: target !== null && (target.state === 'called' || target.state === 'waiting'),
    back: target?.state === 'passed',
    remove: target !== null,
    done: target?.state === 'called',
    recall: target?.state === 'called',
  };
}
