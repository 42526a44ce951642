import multipart from '@fastify/multipart';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { SIGNATURE_MAX_BYTES, type User } from '../../contract/accounts';
import { idValue } from '../../contract/common';
import { EXTENSIONS } from '../../contract/files';
import { recordAudit } from '../audit/record';
import { authOf } from '../auth/plugin';
import { accounts, domains } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { fileBytes, formFile } from '../http/multipart';
import { parse } from '../http/validate';
import { sendObject } from '../storage/send';
import { storedName } from '../storage/types';
import { checkSignatureImage } from './signatureImage';
import { toUser } from './serialize';

const pub = { config: { public: true } };
const signatureParams = z.object({ accountId: idValue, name: z.string().regex(/^[a-f0-9]{24}\.(png|jpg)$/) });
const PREFIX = '/api/v1/signatures/';

/** The storage key of a signature address this server gave, or null for anything else (an older free-text value). */
function storedKey(url: string | null, accountId: number): string | null {
  if (!url?.startsWith(`${PREFIX}${accountId}/`)) return null;
  const name = url.slice(PREFIX.length + String(accountId).length + 1);
  return /^[a-f0-9]{24}\.(png|jpg)$/.test(name) ? `signatures/${accountId}/${name}` : null;
}

/**
 * settings/signature: the account's signature as a stored image (checked by ./signatureImage), put on printed
 * reports through accounts.signature (server/reports/print.ts reads that address, the print sheet loads it).
 */
export async function signatureRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const { db, storage } = deps;

  // The form parser stays with this route (a plugin of its own).
  await app.register(async (forms) => {
    await forms.register(multipart);
    signatureUpload(forms);
  });

  /** POST accounts/me/signature (form data, one `file`): replaces the signature; the old image is deleted. */
  function signatureUpload(forms: FastifyInstance) {
    forms.post('/accounts/me/signature', async (req): Promise<User> => {
    const { account } = authOf(req);
    const { file } = await formFile(req, SIGNATURE_MAX_BYTES);
    const bytes = await fileBytes(file, () => new ApiError('UploadTooLarge', undefined, { maxBytes: SIGNATURE_MAX_BYTES }));
    const image = checkSignatureImage(bytes);
    const name = storedName(EXTENSIONS[image.type]);
    await storage.put(`signatures/${account.id}/${name}`, bytes, { contentType: image.type });
    const url = `${PREFIX}${account.id}/${name}`;
    const row = await db.transaction(async (tx) => {
      const [before] = await tx.select({ signature: accounts.signature }).from(accounts).where(eq(accounts.id, account.id)).for('update');
      const [updated] = await tx.update(accounts).set({ signature: url }).where(eq(accounts.id, account.id)).returning();
      await recordAudit(tx, {
        at: deps.clock.now(), actorId: account.id, area: 'accounts', action: 'signature', objectType: 'account', objectId: account.id,
        before: { signature: before?.signature ?? null }, after: { signature: url },
      });
      return { updated: updated!, old: before?.signature ?? null };
    });
    const oldKey = storedKey(row.old, account.id);
    if (oldKey) await storage.delete(oldKey).catch((err: unknown) => req.log.warn({ err, key: oldKey }, 'old signature not deleted'));
    const [domain] = await db.select({ name: domains.displayDomainName }).from(domains).limit(1);
    return toUser(row.updated, domain?.name ?? null);
    });
  }

  // Like avatars: an <img> on the print sheet cannot send a bearer, so the address itself is the secret
  // (96 random bits, changed on every save, the old one deleted); never cached by shared caches.
  app.get('/signatures/:accountId/:name', pub, async (req, reply) => {
    const { accountId, name } = parse(signatureParams, req.params);
    reply.header('cache-control', 'private, max-age=3600');
    return sendObject(storage, reply, `signatures/${accountId}/${name}`, name.endsWith('.png') ? 'image/png' : 'image/jpeg');
  });
}
