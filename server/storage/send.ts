import type { FastifyReply } from 'fastify';
import { ApiError } from '../http/errors';
import { StorageNotFoundError, type Storage } from './types';

/** Streams a stored object as the response; a row whose file is gone answers 404 rather than 500. */
export async function sendObject(storage: Storage, reply: FastifyReply, key: string, contentType: string): Promise<FastifyReply> {
  const info = await storage.head(key);
  if (!info) throw new ApiError('NotFound', 'The file is no longer stored');
  try {
    const stream = await storage.get(key);
    reply.header('content-length', info.size);
    return reply.type(contentType).send(stream);
  } catch (err) {
    if (err instanceof StorageNotFoundError) throw new ApiError('NotFound', 'The file is no longer stored');
    throw err;
  }
}
