import { z } from 'zod';

/** GET exams/{id}/series: the exam's stored instances grouped for the viewer (series by number, instances by number). */
export interface ViewerInstance {
  id: number;
  sopInstanceUid: string;
  sopClassUid: string | null;
  instanceNumber: number | null;
  rows: number | null;
  columns: number | null;
  frames: number;
  transferSyntaxUid: string;
  size: number;
  /** Relative to /api/v1/; add `?token=` (view token or download token) when no bearer header can be sent. */
  path: string;
}

export interface ViewerSeries {
  seriesInstanceUid: string;
  seriesNumber: number | null;
  seriesDescription: string | null;
  modality: string | null;
  instances: ViewerInstance[];
}

export interface SeriesList {
  examId: number;
  /** The exam's patient as stored (a DICOM name keeps its '=' groups): the viewer's header renders it by language. */
  patientName: string;
  patientId: string;
  studyInstanceUids: string[];
  series: ViewerSeries[];
  instanceCount: number;
}

/** POST viewers/{id}/path and share-path: where the viewer opens this exam, and the view token it carries. */
export interface ViewerPath {
  /** The viewer page, e.g. /viewer/12?token=... */
  path: string;
  /** Relative to /api/v1/: the series list, to be fetched with ?token= */
  seriesPath: string;
  token: string;
  expires: number;
}

export const sharePathInput = z.object({ ttlHours: z.number().int().min(1).max(24 * 7).default(72) }).default({ ttlHours: 72 });

/** Viewer tokens: two hours for one's own viewing; share paths up to a week. */
export const VIEW_TOKEN_TTL_SECONDS = 2 * 3600;
