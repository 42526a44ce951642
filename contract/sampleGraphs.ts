import { z } from 'zod';
import { idValue } from './common';

/**
 * Sample graphs (areas §3 "Sample graph: origin, url, point (x, y, color), index"; §6 manage_sample_graph): an
 * organisation's reference drawings (a body outline, a breast quadrant chart…) with coloured points marked on them.
 * A point's x and y are fractions of the drawing's width and height (0 left/top … 1 right/bottom), so the points stay
 * in place however large the drawing is shown.
 */

/** The drawings accepted: PNG or JPEG, told by their bytes. The size limit is the global config sampleGraphMaxMb. */
export const SAMPLE_GRAPH_TYPES = ['image/png', 'image/jpeg'] as const;
export const SAMPLE_GRAPH_MAX_POINTS = 200;
export const SAMPLE_GRAPH_COLOURS = ['#e03131', '#f08c00', '#2f9e44', '#1971c2', '#9c36b5', '#212529'] as const;

const fraction = z.number().finite().min(0).max(1);
export const sampleGraphPoint = z.object({
  x: fraction,
  y: fraction,
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'a #rrggbb colour'),
  label: z.string().trim().max(32).optional(),
}).strict();
export type SampleGraphPoint = z.infer<typeof sampleGraphPoint>;

const name = z.string().trim().min(1).max(64);
const origin = z.string().trim().max(64);

/** The text fields of the upload form (sent before the file). */
export const sampleGraphCreateFields = z.object({
  bucketId: idValue,
  name,
  origin: origin.default(''),
}).strict();

/** PATCH sample-graphs/{id}: any of name, origin and the whole list of points. */
export const sampleGraphUpdateInput = z.object({
  name: name.optional(),
  origin: origin.optional(),
  points: z.array(sampleGraphPoint).max(SAMPLE_GRAPH_MAX_POINTS).optional(),
}).strict().refine((v) => v.name !== undefined || v.origin !== undefined || v.points !== undefined, { message: 'nothing to change' });
export type SampleGraphUpdateInput = z.input<typeof sampleGraphUpdateInput>;

/** POST sample-graphs/{id}/resort: put the drawing right after `preId` (null: first). */
export const sampleGraphResortInput = z.object({ preId: z.number().int().positive().max(2_147_483_647).nullable() }).strict();
export type SampleGraphResortInput = z.input<typeof sampleGraphResortInput>;

export const sampleGraphListQuery = z.object({ bucketId: idValue }).strict();

export interface SampleGraph {
  id: number;
  bucketId: number;
  name: string;
  origin: string;
  /** A short-lived read link of the drawing (Storage.readUrl); the list is fetched again for a fresh one. */
  url: string;
  points: SampleGraphPoint[];
  /** The place in the organisation's list (0 first). */
  index: number;
  created: string;
}
