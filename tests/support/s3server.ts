import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './ports';

/**
 * An S3 server that was not written here: @20minutes/s3rver (npm), run in a child process on a free loopback port with
 * its files in a temporary directory. It recomputes every SigV4 signature (Authorization header and presigned query)
 * and refuses a mismatch with 403 SignatureDoesNotMatch. Its one key pair is fixed by the package (S3RVER/S3RVER).
 */
export interface S3Server {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The env a product process needs to store into it (server/storage/index.ts). */
  env: Record<string, string>;
  process: ChildProcess;
  close(): Promise<void>;
}

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 's3server.child.cjs');

export async function startS3Server(opts: { dir?: string; bucket?: string } = {}): Promise<S3Server> {
  const dir = opts.dir ?? mkdtempSync(path.join(tmpdir(), 's3rver-'));
  const bucket = opts.bucket ?? 'rad-cluster';
  const port = await freePort();
  const child = spawn(process.execPath, [CHILD, String(port), dir, bucket], { stdio: ['ignore', 'pipe', 'pipe'] });
  let errors = '';
  child.stderr!.on('data', (d: Buffer) => { errors += d.toString(); });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => { out += d.toString(); if (out.includes('ready')) resolve(); });
    child.once('exit', (code) => reject(new Error(`the S3 server stopped (${code}): ${errors.slice(0, 2000)}`)));
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const region = 'us-east-1';
  const accessKeyId = 'S3RVER';
  const secretAccessKey = 'S3RVER';
  return {
    endpoint, bucket, region, accessKeyId, secretAccessKey, process: child,
    env: { S3_BUCKET: bucket, S3_ENDPOINT: endpoint, S3_REGION: region, S3_ACCESS_KEY: accessKeyId, S3_SECRET_KEY: secretAccessKey },
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      if (!opts.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
