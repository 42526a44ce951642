import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { BucketAccess } from '../../contract/actions';
import { bindCodeInput, findOneQuery, isOrganizationCode, organizationPatch, type FoundOrganization, type Organization, type UploadToken } from '../../contract/organizations';
import { authOf } from '../auth/plugin';
import type { Db } from '../db/client';
import { accounts, bucketMembers, buckets, groupMembers } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { limitRequest } from '../http/rateLimit';
import { parse } from '../http/validate';
import { organizationFor, type BucketRow, type OrgContext } from './access';
import { adminWrite, bucketParam } from './resource';
import { newUploadToken } from './token';

/**
 * The organisation itself (areas §3, §5): its settings, its code (4–35 letters and digits, unique in any case, fixed
 * once bound), and the public upload token behind /upload?token (server/uploads reads buckets.public_upload_token, so a
 * regenerated token ends the old one at once) with its public look-up `find-one`.
 */
async function present(db: Db, bucket: BucketRow, org: OrgContext): Promise<Organization> {
  const members = await db.select({ accountId: accounts.id, username: accounts.username, name: accounts.name, accessLevel: bucketMembers.accessLevel })
    .from(bucketMembers).innerJoin(accounts, eq(accounts.id, bucketMembers.accountId)).where(eq(bucketMembers.bucketId, bucket.id)).orderBy(asc(accounts.id));
  const groupAdmins = await db.select({ accountId: accounts.id, username: accounts.username, name: accounts.name })
    .from(groupMembers).innerJoin(accounts, eq(accounts.id, groupMembers.accountId))
    .where(and(eq(groupMembers.groupId, bucket.groupId), eq(groupMembers.accessLevel, 1))).orderBy(asc(accounts.id));
  return {
    id: bucket.id, groupId: bucket.groupId, name: bucket.name, code: bucket.code, codeBound: bucket.codeBound, isPrivate: bucket.isPrivate,
    isFocused: bucket.isFocused, freeEfilm: bucket.freeEfilm, reportFinalOnSubmit: bucket.reportFinalOnSubmit, timeZone: bucket.timeZone, canAdmin: org.canAdmin,
    members: members.map((m) => ({ ...m, accessLevel: m.accessLevel as BucketAccess })), groupAdmins,
  };
}

export function settingsRoutes(app: FastifyInstance, deps: Deps): void {
  const { db } = deps;

  // Public: the organisation an upload link names, and nothing more. Per address and minute like the other public look-ups.
  app.get('/buckets/find-one', { config: { public: true } }, async (req): Promise<FoundOrganization> => {
    await limitRequest(db, `bucket-find-one:${req.ip}`, deps.clock.now());
    const { token } = parse(findOneQuery, req.query);
    const [row] = await db.select({ id: buckets.id, name: buckets.name }).from(buckets).where(eq(buckets.publicUploadToken, token));
    if (!row) throw new ApiError('NotFound');
    return row;
  });

  app.get('/buckets/:id', async (req) => {
    const access = await authOf(req).access();
    const org = await organizationFor(db, access, parse(bucketParam, req.params).id, 'see');
    return present(db, org.bucket, org);
  });

  app.patch('/buckets/:id', async (req) => {
    const { org } = await adminWrite(deps, req, async (tx, ctx, audit) => {
      const input = parse(organizationPatch, req.body);
      const [before] = await tx.select().from(buckets).where(eq(buckets.id, ctx.bucketId)).for('update');
      const [after] = Object.keys(input).length === 0 ? [before] : await tx.update(buckets).set(input).where(eq(buckets.id, ctx.bucketId)).returning();
      const changed = (Object.keys(input) as (keyof typeof input)[]).filter((k) => before![k] !== after![k]);
      if (changed.length > 0) {
        await audit({ action: 'settings', objectType: 'bucket', objectId: ctx.bucketId,
          before: Object.fromEntries(changed.map((k) => [k, before![k]])), after: Object.fromEntries(changed.map((k) => [k, after![k]])) });
      }
      return ctx;
    });
    const [bucket] = await db.select().from(buckets).where(eq(buckets.id, org.bucket.id));
    return present(db, bucket!, org);
  });

  app.post('/buckets/:id/bind-code', async (req) => {
    const { org } = await adminWrite(deps, req, async (tx, ctx, audit) => {
      const { code } = parse(bindCodeInput, req.body);
      const [bucket] = await tx.select().from(buckets).where(eq(buckets.id, ctx.bucketId)).for('update');
      if (bucket!.codeBound) throw new ApiError('OrganizationCodeBound');
      if (!isOrganizationCode(code)) throw new ApiError('OrganizationCodeInvalid');
      // Codes differing only in case are one code: binds of the same code take turns, then the check sees the winner.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`bucket-code:${code.toLowerCase()}`}))`);
      const [taken] = await tx.select({ id: buckets.id }).from(buckets).where(and(sql`lower(${buckets.code}) = lower(${code})`, ne(buckets.id, ctx.bucketId)));
      if (taken) throw new ApiError('OrganizationCodeTaken');
      await tx.update(buckets).set({ code, codeBound: true }).where(eq(buckets.id, ctx.bucketId));
      await audit({ action: 'bind-code', objectType: 'bucket', objectId: ctx.bucketId, before: { code: bucket!.code, codeBound: false }, after: { code, codeBound: true } });
      return ctx;
    }, 'OrganizationCodeTaken');
    const [bucket] = await db.select().from(buckets).where(eq(buckets.id, org.bucket.id));
    return present(db, bucket!, org);
  });

  app.get('/buckets/:id/upload-token', async (req): Promise<UploadToken> => {
    const access = await authOf(req).access();
    const org = await organizationFor(db, access, parse(bucketParam, req.params).id, 'admin');
    return { token: org.bucket.publicUploadToken };
  });

  app.post('/buckets/:id/upload-token/regenerate', async (req): Promise<UploadToken> => adminWrite(deps, req, async (tx, ctx, audit) => {
    const token = newUploadToken();
    await tx.update(buckets).set({ publicUploadToken: token }).where(eq(buckets.id, ctx.bucketId));
    // The token is a secret: the trail says it changed, not what it is.
    await audit({ action: 'upload-token-regenerate', objectType: 'bucket', objectId: ctx.bucketId, after: { publicUploadToken: 'regenerated' } });
    return { token };
  }));
}
