import { z } from 'zod';

/** Report images (core §2 report workspace "capture key images", §5: at most 6, each ≤ 5 MB). */
export interface KeyImage {
  id: number;
  reportId: number;
  contentType: string;
  size: number;
  /** A read link valid for an hour (an API file link or a presigned URL); fetch the list again for a new one. */
  url: string;
  instanceId: number | null;
  frame: number | null;
  description: string | null;
  sort: number;
  created: string;
}

/** Text fields of the key image form (sent before the file; all optional). */
export const keyImageFields = z.object({
  instanceId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  frame: z.coerce.number().int().min(0).max(100_000).optional(),
  description: z.string().trim().max(256).optional(),
});

export interface ReportAttachment {
  id: number;
  reportId: number;
  name: string;
  contentType: string;
  size: number;
  created: string;
  /** null when it came through an upload code. */
  createdBy: number | null;
}

export interface PresignedUrl {
  url: string;
  /** Unix seconds. */
  expires: number;
}

export const attachmentParams = z.object({
  id: z.coerce.number().int().positive().max(2_147_483_647),
  attachmentId: z.coerce.number().int().positive().max(2_147_483_647),
});
export const keyImageParams = z.object({
  id: z.coerce.number().int().positive().max(2_147_483_647),
  imageId: z.coerce.number().int().positive().max(2_147_483_647),
});
