import type { FastifyReply } from 'fastify';
import { ApiError } from '../http/errors';
import { storedFileHeaders } from '../http/headers';
import { StorageNotFoundError, type Storage } from './types';

/**
 * Streams a stored object as the response; a row whose file is gone answers 404 rather than 500. A stored file is a
 * user's: it goes out sandboxed, and downloaded unless it is a plain image (server/http/headers.ts).
 */
export async function sendObject(storage: Storage, reply: FastifyReply, key: string, contentType: string): Promise<FastifyReply> {
  const info = await storage.head(key);
  if (!info) throw new ApiError('NotFound', 'The file is no longer stored');
  try {
    const stream = await storage.get(key);
    reply.header('content-length', info.size);
    storedFileHeaders(reply, contentType);
    return reply.type(contentType).send(stream);
  } catch (err) {
    if (err instanceof StorageNotFoundError) throw new ApiError('NotFound', 'The file is no longer stored');
    throw err;
  }
}
