import path from 'node:path';
import type { Clock } from '../deps';
import { createLocalStorage } from './local';
import { createS3Storage } from './s3';
import { createSigner } from './signer';
import type { Storage } from './types';

export type { Storage } from './types';

/**
 * The deployment's storage: an S3-compatible bucket when S3_BUCKET is set (S3_ENDPOINT, S3_REGION,
 * S3_ACCESS_KEY, S3_SECRET_KEY), else local disk under DATA_DIR/files. `secret` signs file links and
 * upload credentials (main passes the token secret; the signer derives its own key from it).
 */
export function storageFromEnv(env: NodeJS.ProcessEnv, opts: { dataDir: string; secret: string; clock: Clock }): Storage {
  const signer = createSigner(opts.secret);
  if (env.S3_BUCKET) {
    const region = env.S3_REGION || 'us-east-1';
    const accessKeyId = env.S3_ACCESS_KEY;
    const secretAccessKey = env.S3_SECRET_KEY;
    if (!accessKeyId || !secretAccessKey) throw new Error('S3_BUCKET is set: S3_ACCESS_KEY and S3_SECRET_KEY are needed too');
    return createS3Storage({
      endpoint: env.S3_ENDPOINT || `https://s3.${region}.amazonaws.com`, bucket: env.S3_BUCKET, region,
      accessKeyId, secretAccessKey, signer, clock: opts.clock,
    });
  }
  return createLocalStorage({ root: path.join(opts.dataDir, 'files'), signer, clock: opts.clock });
}
