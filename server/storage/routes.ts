import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';
import { BLOB_TOKEN, type BlobClaims } from './local';
import { contentDisposition } from './s3';
import { sendObject } from './send';

const query = z.object({ token: z.string().min(10).max(4096) });

/**
 * GET files?token=: the read links of local storage (Storage.readUrl). Public: the signed token is
 * the permission, scoped to one object and expiring; with S3 the browser goes to the bucket instead.
 */
export async function fileRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  app.get('/files', { config: { public: true } }, async (req, reply) => {
    const { token } = parse(query, req.query);
    const now = Math.floor(deps.clock.now().getTime() / 1000);
    const checked = deps.storage.signer.verify<BlobClaims>(BLOB_TOKEN, token, now);
    if (!checked.ok) throw new ApiError(checked.reason === 'expired' ? 'FileTokenExpired' : 'FileTokenInvalid');
    const { k, ct, n } = checked.claims;
    if (n) reply.header('content-disposition', contentDisposition(n));
    reply.header('cache-control', 'private, max-age=300');
    return sendObject(deps.storage, reply, k, ct ?? 'application/octet-stream');
  });
}
