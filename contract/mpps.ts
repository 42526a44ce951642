/**
 * A registry line's latest Modality Performed Procedure Step (issue 33), as the registry desk and the call queue's
 * operator desk show it: who is scanning the patient (the station's AE title) since when, and how it ended.
 */
export const MPPS_STATES = ['IN PROGRESS', 'COMPLETED', 'DISCONTINUED'] as const;
export type MppsState = (typeof MPPS_STATES)[number];

export interface MppsProgress {
  status: MppsState;
  /** The performing station's AE title (or the calling AE when the step did not name one). */
  stationAe: string;
  /** When the modality began the step (its N-CREATE reached us). */
  started: string;
  /** When it was completed or discontinued; null while in progress. */
  ended: string | null;
  /** Images the step's Performed Series Sequence references; null when it referenced none yet. */
  images: number | null;
}

/** The JSON text the server's subquery gives (json_build_object in the database) to the contract's shape; null if none. */
export function mppsProgressOf(json: string | null | undefined): MppsProgress | null {
  if (!json) return null;
  const raw = JSON.parse(json) as { status: string; stationAe: string | null; callingAe: string; created: string; updated: string; images: number | null };
  const status = (MPPS_STATES as readonly string[]).includes(raw.status) ? raw.status as MppsState : null;
  if (!status) return null;
  return {
    status,
    stationAe: (raw.stationAe ?? raw.callingAe ?? '').trim(),
    started: new Date(raw.created).toISOString(),
    ended: status === 'IN PROGRESS' ? null : new Date(raw.updated).toISOString(),
    images: typeof raw.images === 'number' ? raw.images : null,
  };
}
