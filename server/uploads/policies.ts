import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { POLICY_LIMITS } from '../../contract/files';
import { POLICY_KINDS, type DownloadToken, type PolicyKind, type UploadPolicy } from '../../contract/uploads';
import { authOf } from '../auth/plugin';
import type { Deps } from '../deps';
import { parse } from '../http/validate';
import { issue, sessionCause, type DownloadClaims, type PolicyClaims } from '../auth/permits';

/** Policy and download permits are short: long enough to pick a file or start a download, no longer; logout ends them. */
export const POLICY_TTL_SECONDS = 10 * 60;
export const DOWNLOAD_TTL_SECONDS = 10 * 60;

const UPLOAD_PATHS: Record<PolicyKind, string> = {
  avatars: 'uploads/avatars',
  forms: 'exams/{id}/forms',
  attachments: 'reports/{id}/upload-attachments',
  images: 'reports/{id}/images',
};

const kindParam = z.object({ kind: z.enum(POLICY_KINDS) });

/**
 * GET policies/{avatars|forms|attachments|images}: the limits of that upload and a permit for the
 * signed-in account to send as the form's `token` (the object's permission is checked on upload);
 * GET policies/download-token: a permit for `?token=` on file downloads.
 */
export async function policyRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  app.get('/policies/download-token', async (req): Promise<DownloadToken> => {
    return issue<DownloadClaims>(deps, 'download', { by: sessionCause(authOf(req)) }, DOWNLOAD_TTL_SECONDS);
  });

  app.get('/policies/:kind', async (req): Promise<UploadPolicy> => {
    const { kind } = parse(kindParam, req.params);
    const { token, expires } = issue<PolicyClaims>(deps, 'policy', { p: kind, by: sessionCause(authOf(req)) }, POLICY_TTL_SECONDS);
    const limits = POLICY_LIMITS[kind];
    return { kind, maxBytes: limits.maxBytes, types: [...limits.types], maxCount: limits.maxCount, token, expires, uploadPath: UPLOAD_PATHS[kind] };
  });
}
