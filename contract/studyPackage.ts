import { z } from 'zod';

/** GET exams/{id}/study-package?repackage: asks for the package (packing in the background) and answers its state. */
export const studyPackageQuery = z.object({
  repackage: z.enum(['true', 'false', '1', '0']).optional().transform((v) => v === 'true' || v === '1'),
});

/** The package's states (core §4 "Upload packaging"); machines/studyPackage.ts moves between them. */
export type StudyPackageState = 'none' | 'processing' | 'ready' | 'error' | 'expired';

export interface StudyPackage {
  examId: number;
  state: Exclude<StudyPackageState, 'none'>;
  startedAt: string;
  readyAt: string | null;
  /** When a ready package is deleted. */
  expiresAt: string | null;
  size: number | null;
  fileCount: number | null;
  /** When ready: a download link valid for ten minutes (ask again for a fresh one). */
  url: string | null;
  /** Unix seconds of `url`'s expiry. */
  urlExpires: number | null;
  error: string | null;
  /** When the next repackage is allowed (core §5: once per hour). */
  repackAvailableAt: string | null;
}
