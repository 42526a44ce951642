import { eq } from 'drizzle-orm';
import type { Action, BucketAccess } from '../../contract/actions';
import { hashPassword } from '../../server/auth/password';
import * as t from '../../server/db/schema';
import { DEMO_PASSWORD } from '../../server/seed/demo';
import type { TestServer } from './server';

/** The same cheap cost the harness seeds with: tests hash many passwords. */
const TEST_SCRYPT_COST = 1024;

let serial = 0;
/** A name no other test in the file has used (usernames and bucket codes are unique). */
export function unique(prefix: string): string {
  serial += 1;
  return `${prefix}${serial}${Math.random().toString(36).slice(2, 6)}`;
}

/**
 * Creates an account straight in the database, the way an old system would have left it: any password
 * (also one that breaks today's rule), optionally in a group and organisations.
 */
export async function createAccount(s: TestServer, opts: {
  username?: string; password?: string; name?: string; status?: number;
  groupId?: number; groupAdmin?: boolean;
  buckets?: { bucketId: number; accessLevel?: BucketAccess; actions?: Action[] }[];
} = {}): Promise<{ id: number; username: string; password: string }> {
  const db = s.db.db;
  const username = opts.username ?? unique('user');
  const password = opts.password ?? DEMO_PASSWORD;
  const [row] = await db.insert(t.accounts).values({
    username, name: opts.name ?? username, passwordHash: await hashPassword(password, TEST_SCRYPT_COST), status: opts.status ?? 0,
  }).returning();
  const id = row!.id;
  if (opts.groupId !== undefined) {
    await db.insert(t.groupMembers).values({ groupId: opts.groupId, accountId: id, accessLevel: opts.groupAdmin ? 1 : 0 });
  }
  for (const b of opts.buckets ?? []) {
    await db.insert(t.bucketMembers).values({ bucketId: b.bucketId, accountId: id, accessLevel: b.accessLevel ?? 'member' });
    if (b.actions?.length) {
      const [role] = await db.insert(t.roles).values({ bucketId: b.bucketId, name: unique('role'), actions: b.actions }).returning();
      await db.insert(t.roleUsers).values({ roleId: role!.id, accountId: id });
    }
  }
  return { id, username, password };
}

/** Adds an existing account to a group (another group than its first one, for cross-group cases). */
export async function joinGroup(s: TestServer, accountId: number, groupId: number, groupAdmin = false): Promise<void> {
  await s.db.db.insert(t.groupMembers).values({ groupId, accountId, accessLevel: groupAdmin ? 1 : 0 });
}

/** A second group with one organisation, apart from the demo group: the "elsewhere" of cross-organisation tests. */
export async function createGroup(s: TestServer, name = unique('group')): Promise<{ groupId: number; bucketId: number }> {
  const db = s.db.db;
  const [group] = await db.insert(t.groups).values({ name, displayName: `Group ${name}` }).returning();
  const [bucket] = await db.insert(t.buckets).values({ groupId: group!.id, name: `Org ${name}`, code: name.slice(0, 35) }).returning();
  return { groupId: group!.id, bucketId: bucket!.id };
}

export async function setAllowRegistration(s: TestServer, allow: boolean): Promise<void> {
  await s.db.db.update(t.domains).set({ allowRegistration: allow });
}

export async function accountRow(s: TestServer, id: number) {
  const [row] = await s.db.db.select().from(t.accounts).where(eq(t.accounts.id, id));
  return row!;
}
