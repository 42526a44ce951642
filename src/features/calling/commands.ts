import type { CommandSpec } from '@/lib/commands';

/** What the operator screen's commands need; the page builds it every render. */
export interface CallingContext {
  /** Queues on the screen and the one in hand. */
  queues: number;
  /** Each action below acts, or tells on the status line why it cannot. */
  canCheckIn: boolean;
  canManage: boolean;
  callNext(): void;
  recall(): void;
  pass(): void;
  back(): void;
  remove(): void;
  done(): void;
  move(step: 1 | -1): void;
  switchQueue(step: 1 | -1): void;
  goQueue(index: number): void;
  focusSearch(): void;
  checkIn(): void;
  settings(): void;
  refresh(): void;
}

type Spec = CommandSpec<CallingContext>;

const calls = 'calling.commands.sections.calls';
const nav = 'calling.commands.sections.navigate';
const desk = 'calling.commands.sections.desk';

function queueKey(n: number): Spec {
  return {
    id: `calling.queue${n}`,
    label: `calling.commands.queue${n}`,
    section: nav,
    scope: 'calling',
    shortcut: String(n),
    when: (c) => c.queues >= n,
    run: (c) => c.goQueue(n - 1),
  };
}

/**
 * The call-queue operator screen (scope 'calling'), every action on a key. The desk's actions are never hidden: a key
 * that cannot act now says why on the desk's status line (nobody waiting, nobody called, already passed...), from the
 * palette too; U brings back the picked passed patient, else the one passed last in the queue in hand (issue 32).
 * N or Space calls the next patient of the
 * queue in hand, R calls again, P passes, U brings a passed patient back, Delete removes (asks first), D is done;
 * ↑↓ / j k pick a patient, ←→ or 1–9 change the queue, / finds a patient.
 */
export const callingCommands: readonly Spec[] = [
  { id: 'calling.next', label: 'calling.commands.next', section: calls, scope: 'calling', shortcut: 'n', keywords: ['call', '叫号'], run: (c) => c.callNext() },
  { id: 'calling.nextSpace', label: 'calling.commands.next', section: calls, scope: 'calling', shortcut: 'Space', run: (c) => c.callNext() },
  { id: 'calling.recall', label: 'calling.commands.recall', section: calls, scope: 'calling', shortcut: 'r', keywords: ['repeat', '重呼'], run: (c) => c.recall() },
  { id: 'calling.pass', label: 'calling.commands.pass', section: calls, scope: 'calling', shortcut: 'p', keywords: ['skip', 'missed', '过号'], run: (c) => c.pass() },
  { id: 'calling.back', label: 'calling.commands.back', section: calls, scope: 'calling', shortcut: 'u', keywords: ['return', 'missed', '回队', '过号'], run: (c) => c.back() },
  { id: 'calling.done', label: 'calling.commands.done', section: calls, scope: 'calling', shortcut: 'd', keywords: ['finish', '完成'], run: (c) => c.done() },
  { id: 'calling.remove', label: 'calling.commands.remove', section: calls, scope: 'calling', shortcut: 'Delete', run: (c) => c.remove() },
  { id: 'calling.down', label: 'calling.commands.down', section: nav, scope: 'calling', shortcut: 'j', repeat: true, run: (c) => c.move(1) },
  { id: 'calling.up', label: 'calling.commands.up', section: nav, scope: 'calling', shortcut: 'k', repeat: true, run: (c) => c.move(-1) },
  { id: 'calling.downArrow', label: 'calling.commands.down', section: nav, scope: 'calling', shortcut: 'ArrowDown', repeat: true, run: (c) => c.move(1) },
  { id: 'calling.upArrow', label: 'calling.commands.up', section: nav, scope: 'calling', shortcut: 'ArrowUp', repeat: true, run: (c) => c.move(-1) },
  { id: 'calling.right', label: 'calling.commands.right', section: nav, scope: 'calling', shortcut: 'ArrowRight', when: (c) => c.queues > 1, run: (c) => c.switchQueue(1) },
  { id: 'calling.left', label: 'calling.commands.left', section: nav, scope: 'calling', shortcut: 'ArrowLeft', when: (c) => c.queues > 1, run: (c) => c.switchQueue(-1) },
  ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map(queueKey),
  { id: 'calling.search', label: 'calling.commands.search', section: nav, scope: 'calling', shortcut: '/', run: (c) => c.focusSearch() },
  { id: 'calling.checkIn', label: 'calling.commands.checkIn', section: desk, scope: 'calling', shortcut: 'c', keywords: ['check in', '签到', '排队'], run: (c) => c.checkIn() },
  { id: 'calling.settings', label: 'calling.commands.settings', section: desk, scope: 'calling', keywords: ['queue type', 'screen', 'token', '队列', '大屏'], when: (c) => c.canManage, run: (c) => c.settings() },
  { id: 'calling.refresh', label: 'calling.commands.refresh', section: desk, scope: 'calling', keywords: ['reload'], run: (c) => c.refresh() },
];

/** The waiting-room screen's keys: F for full screen (the TV's only key; the page binds the keys itself). */
export interface ScreenContext {
  fullscreen(): void;
}

export const screenCommands: readonly CommandSpec<ScreenContext>[] = [
  { id: 'calling.screen.fullscreen', label: 'calling.commands.fullscreen', section: 'calling.commands.sections.screen', scope: 'calling', shortcut: 'f', run: (c) => c.fullscreen() },
];
