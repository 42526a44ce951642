import type { ReportFields } from './fields';

export interface Draft {
  v: 1;
  userId: number;
  reportId: number;
  /** The report version the text was started from. */
  baseVersion: number;
  /** The server's savedTime when the text was started from it. */
  baseSavedTime: string | null;
  /** Client clock, ms: the last keystroke kept. */
  updatedAt: number;
  fields: ReportFields;
}

/**
 * What to do with a draft found when a report opens:
 * - 'none': there is none;
 * - 'same': it says what the server already has (a save went through after the last keystroke) — drop it;
 * - 'newer': written after the server's last save — offer to restore it;
 * - 'older': the server was saved after the draft's last keystroke (from another tab or machine) — still
 *   offered, never dropped silently, but the offer says so and discarding is the default.
 * The version tells first (no save since the draft was started means the draft is newer); times, from two
 * clocks, only when the version moved.
 */
export type DraftOffer = { kind: 'none' } | { kind: 'same' } | { kind: 'newer' | 'older'; draft: Draft };
