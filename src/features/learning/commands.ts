import type { CommandSpec } from '@/lib/commands';

/** The learning list (scope 'learning'): ↑/↓ walk the videos, Enter opens one, / searches. */
export interface LearningListContext {
  rows: number;
  move(step: 1 | -1): void;
  open(): void;
  focusSearch(): void;
}

/**
 * A video's page (scope 'learning'). The player takes its own keys while it has the focus (space/k play and pause,
 * ←/→ seek, ↑/↓ volume, m mute, f full screen) and stops them there, so they never reach the app's shortcuts; `k`
 * here plays and pauses when the focus is elsewhere on the page.
 */
export interface LearningDetailContext {
  ready: boolean;
  togglePlay(): void;
  focusPlayer(): void;
  back(): void;
}

const list = 'learning.commands.sections.list';
const video = 'learning.commands.sections.video';

export const learningListCommands: readonly CommandSpec<LearningListContext>[] = [
  { id: 'learning.next', label: 'learning.commands.next', section: list, scope: 'learning', shortcut: 'ArrowDown', repeat: true, when: (c) => c.rows > 0, run: (c) => c.move(1) },
  { id: 'learning.previous', label: 'learning.commands.previous', section: list, scope: 'learning', shortcut: 'ArrowUp', repeat: true, when: (c) => c.rows > 0, run: (c) => c.move(-1) },
  { id: 'learning.open', label: 'learning.commands.open', section: list, scope: 'learning', shortcut: 'Enter', when: (c) => c.rows > 0, run: (c) => c.open() },
  { id: 'learning.search', label: 'learning.commands.search', section: list, scope: 'learning', shortcut: '/', run: (c) => c.focusSearch() },
];

export const learningDetailCommands: readonly CommandSpec<LearningDetailContext>[] = [
  { id: 'learning.playPause', label: 'learning.commands.playPause', section: video, scope: 'learning', shortcut: 'k', keywords: ['play', 'pause', '播放', '暂停'], when: (c) => c.ready, run: (c) => c.togglePlay() },
  { id: 'learning.focusPlayer', label: 'learning.commands.focusPlayer', section: video, scope: 'learning', shortcut: 'p', when: (c) => c.ready, run: (c) => c.focusPlayer() },
  { id: 'learning.back', label: 'learning.commands.back', section: video, scope: 'learning', shortcut: 'b', run: (c) => c.back() },
];
