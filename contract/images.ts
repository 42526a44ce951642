import { z } from 'zod';
import { decimalInt, idValue } from './common';

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
  instanceId: idValue.optional(),
  frame: decimalInt(0, 100_000).optional(),
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
  id: idValue,
  attachmentId: idValue,
});
export const keyImageParams = z.object({
  id: idValue,
  imageId: idValue,
});
