import { LEARNING_SAVE_EVERY_SEC, type LearningProgress } from '../../../contract/learning';

/**
 * The player's progress rules, apart from the player so they can be tested: where to resume, how much is watched,
 * and when a save is due (every LEARNING_SAVE_EVERY_SEC seconds of actual play; seeking does not count).
 */

/** Seconds from the end under which a video counts as finished: opening it again starts from the beginning. */
export const FINISHED_WITHIN_SEC = 1;

/** Where the player starts: the saved position, or 0 for a video never opened or watched to its end. */
export function resumePosition(progress: LearningProgress | null, durationSec: number): number {
  if (!progress || progress.positionSec <= 0) return 0;
  if (durationSec > 0 && progress.positionSec >= durationSec - FINISHED_WITHIN_SEC) return 0;
  return progress.positionSec;
}

/** How much is watched, 0..1 (a completed video is 1 even when rewatched from the start). */
export function watchedFraction(progress: LearningProgress | null, durationSec: number): number {
  if (!progress) return 0;
  if (progress.completed) return 1;
  if (durationSec <= 0) return 0;
  return Math.min(1, Math.max(0, progress.positionSec / durationSec));
}

/** m:ss (h:mm:ss from an hour) of a number of seconds. */
export function formatDuration(totalSec: number): string {
  const sec = Math.max(0, Math.floor(totalSec));
  const h = Math.floor(sec / 3600);
  const m = Math.floor((sec % 3600) / 60);
  const s = String(sec % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** A gap between two time updates larger than this is a seek, not play. */
const MAX_PLAY_STEP_SEC = 1.5;

/**
 * Counts seconds played from the player's time updates and says when a save is due. `tick` is called on every
 * time update while playing; `saved` after each write (whatever caused it) starts the count again.
 */
export class SaveSchedule {
  private last: number | null = null;
  private played = 0;

  constructor(private readonly everySec = LEARNING_SAVE_EVERY_SEC) {}

  /** The player stands at `positionSec`; true when a save is due now. */
  tick(positionSec: number): boolean {
    const step = this.last === null ? 0 : positionSec - this.last;
    this.last = positionSec;
    if (step > 0 && step <= MAX_PLAY_STEP_SEC) this.played += step;
    return this.played >= this.everySec;
  }

  /** A jump (seek, pause): the next update measures from where the player now stands. */
  moved(positionSec: number): void {
    this.last = positionSec;
  }

  saved(): void {
    this.played = 0;
  }
}
