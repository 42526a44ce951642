import { ACTIONS, type Action } from '../../../../contract/actions';
import { EXTENSIONS, type SniffedType } from '../../../../contract/files';
import { UPLOAD_CODE_TTL_HOURS, type UploadPolicy } from '../../../../contract/uploads';
import { wholeNumberWithin } from '@/lib/validation';

/** What the account may do with a report's attachments, each the server's own permission (core §6 "attachment"). */
export interface AttachmentRights {
  /** GET reports/{id}/attachments: anyone who may read the report (exam_get or a report action). */
  list: boolean;
  /** attachment_presigned_url: open or download a file. */
  open: boolean;
  /** attachment_upload: add files oneself. */
  upload: boolean;
  /** attachment_delete. */
  remove: boolean;
  /** attachment_create: hand an upload code to someone without an account. */
  createCode: boolean;
}

// The server's assertCanRead: a report is read by those with exam rights or any report action.
const READ_ACTIONS: readonly Action[] = ['exam_get', ...ACTIONS.report];

export function attachmentRights(can: (action: Action, bucketId: number) => boolean, bucketId: number): AttachmentRights {
  return {
    list: READ_ACTIONS.some((action) => can(action, bucketId)),
    open: can('attachment_presigned_url', bucketId),
    upload: can('attachment_upload', bucketId),
    remove: can('attachment_delete', bucketId),
    createCode: can('attachment_create', bucketId),
  };
}

/** The limits the client checks before sending: the policy's, so a change on the server needs nothing here. */
export type AttachmentLimits = Pick<UploadPolicy, 'maxBytes' | 'types' | 'maxCount'>;

/** Why a chosen file is not sent; catalogue codes (errors.<code>) where the server would answer the same. */
export type Refusal = 'UploadTooLarge' | 'UnsupportedFileType' | 'tooMany';

/**
 * Checks chosen files as the server will (size, then the type their first bytes say, contract/files sniffType),
 * so a refused file says why at once and the others go on. `existing` counts the report's files for maxCount.
 */
export function refusals(files: readonly { size: number; type: SniffedType | null }[], limits: AttachmentLimits, existing: number): (Refusal | null)[] {
  let room = limits.maxCount === null ? Infinity : Math.max(0, limits.maxCount - existing);
  return files.map((file) => {
    if (file.size > limits.maxBytes) return 'UploadTooLarge';
    if (file.size === 0 || !file.type || !limits.types.includes(file.type)) return 'UnsupportedFileType';
    if (room <= 0) return 'tooMany';
    room--;
    return null;
  });
}

/** The hours typed for an upload code, or null when they are not a whole number within the server's bounds. */
export const ttlHours = (text: string): number | null => wholeNumberWithin(text, UPLOAD_CODE_TTL_HOURS);

/** A short type a reader knows (PDF, PNG, JPG, WEBP); anything else as the server named it. */
export function typeLabel(contentType: string): string {
  const ext = (EXTENSIONS as Record<string, string | undefined>)[contentType];
  return ext ? ext.toUpperCase() : contentType;
}

/** A policy's permit is used while it has a minute left; after that a new one is asked (it lives ten minutes). */
export function isFresh(policy: Pick<UploadPolicy, 'expires'>, nowMs: number): boolean {
  return policy.expires * 1000 - nowMs > 60_000;
}
