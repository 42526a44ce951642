import { z } from 'zod';
import { decimalInt, idValue } from './common';

/**
 * Learning videos (areas §2 /learning and /learning/{id}, §7 "Learnings: list and detail"). The list and the detail
 * are open to anyone (the route is unguarded); a signed-in account also sees, and writes, how far it has watched.
 * Every request and response shape of server/learning/.
 */

/** The list's page: 20 by default, at most 100. */
export const LEARNING_PAGE_DEFAULT = 20;
export const LEARNING_PAGE_MAX = 100;
export const LEARNING_SEARCH_MAX = 64;
export const LEARNING_CATEGORY_MAX = 64;

/**
 * A position a player reports can run a little past the stored duration (a container's last frame ends after the
 * rounded length): up to this many seconds over is taken and clamped to the duration; more is refused.
 */
export const LEARNING_POSITION_SLACK_SEC = 2;

/** The player writes the position this often while playing (and on pause, at the end and on leaving). */
export const LEARNING_SAVE_EVERY_SEC = 10;

/** GET learnings: `q` searches title and description, `category` is an exact category, `skip`/`limit` page. */
export const learningListQuery = z.object({
  q: z.string().trim().max(LEARNING_SEARCH_MAX).optional(),
  category: z.string().trim().min(1).max(LEARNING_CATEGORY_MAX).optional(),
  skip: decimalInt(0, 100_000).default(0),
  limit: decimalInt(1, LEARNING_PAGE_MAX).default(LEARNING_PAGE_DEFAULT),
});
export type LearningListQuery = z.input<typeof learningListQuery>;

export const learningParam = z.object({ id: idValue });

/**
 * PUT learnings/:id/progress. `positionSec` is where the player stands (0 to the video's duration, plus the slack
 * above); `completed` marks the video watched to the end. Once completed, a video stays completed: a later write
 * with `completed: false` (watching it again) moves the position but does not undo it.
 */
export const learningProgressInput = z.object({
  positionSec: z.number().finite().min(0).max(24 * 3600),
  completed: z.boolean(),
}).strict();
export type LearningProgressInput = z.infer<typeof learningProgressInput>;

/** The signed-in account's progress on one video; a video never opened reads as position 0, not completed. */
export interface LearningProgress {
  learningId: number;
  positionSec: number;
  completed: boolean;
  /** ISO date-time of the last write, null when never watched. */
  updated: string | null;
}

/** One video. `progress` is the asking account's, null when the request carries no (valid) token. */
export interface Learning {
  id: number;
  title: string;
  description: string;
  /** The video's address under the web app (e.g. /learning/worklist.webm). */
  videoUrl: string;
  posterUrl: string | null;
  durationSec: number;
  category: string | null;
  progress: LearningProgress | null;
}

export interface LearningPage {
  items: Learning[];
  total: number;
  /** Every category of the library (not only this page's), for the filter. */
  categories: string[];
}
