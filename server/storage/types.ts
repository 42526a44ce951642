import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Signer } from './signer';

/**
 * Where files live (DICOM instances, key images, attachments, study packages, avatars, forms):
 * local disk by default, an S3-compatible bucket for deployments that outgrow one disk. Keys are
 * slash-separated paths of [A-Za-z0-9._-] segments, chosen by the server, never by a client.
 */
export interface Storage {
  readonly kind: 'local' | 's3';
  /** Stores atomically: a reader sees the whole object or none. Over `maxBytes` → StorageLimitError and nothing is kept. */
  put(key: string, body: Readable | Uint8Array, opts?: PutOptions): Promise<{ size: number }>;
  /** A stream of the object, or of bytes start..end (inclusive). Missing → StorageNotFoundError. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  head(key: string): Promise<ObjectInfo | null>;
  /** Idempotent: deleting a missing key is fine. */
  delete(key: string): Promise<void>;
  /** Every object whose key starts with `prefix`, in key order. */
  list(prefix: string): AsyncIterable<ObjectInfo>;
  /** A URL a browser can GET without other credentials until it expires: an API file link (local) or a presigned URL (S3). */
  readUrl(key: string, opts: ReadUrlOptions): Promise<string>;
  /** Signs and checks the short-lived tokens of this deployment's file links, upload credentials and download tokens. */
  readonly signer: Signer;
}

export interface PutOptions {
  contentType?: string;
  maxBytes?: number;
  /**
   * No reader can know the key yet (a new random name, storedName, whose row is written after the file): local storage
   * may then write bytes in memory straight to their place instead of through a temporary file and a rename, since a
   * half-written file there is as unreachable as a temporary one. A write that fails removes what it wrote.
   */
  fresh?: boolean;
}

export interface ByteRange {
  start: number;
  end?: number;
}

export interface ObjectInfo {
  key: string;
  size: number;
  modified: Date;
}

export interface ReadUrlOptions {
  expiresInSeconds: number;
  /** Offered as the download's file name. */
  filename?: string;
  contentType?: string;
}

export class StorageNotFoundError extends Error {
  constructor(readonly key: string) { super(`No stored object ${key}`); }
}

export class StorageLimitError extends Error {
  constructor(readonly maxBytes: number) { super(`Object larger than ${maxBytes} bytes`); }
}

const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

/**
 * A fresh name for an object the server stores (`<24 hex>.<ext>`). Hex, because a key segment must start with a
 * letter or digit (base64url starts with '-' or '_' 2 times in 64, which assertKey refuses).
 */
export function storedName(extension: string): string {
  return `${randomBytes(12).toString('hex')}.${extension}`;
}

/** Keys never contain '..', empty segments or anything a path or URL would read differently. */
export function assertKey(key: string): void {
  if (key.length > 512 || !KEY.test(key) || key.split('/').some((s) => s === '.' || s === '..')) throw new Error(`Invalid storage key '${key}'`);
}

export function assertPrefix(prefix: string): void {
  if (prefix !== '' && !KEY.test(prefix.replace(/\/$/, ''))) throw new Error(`Invalid storage prefix '${prefix}'`);
}
