import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Group } from '../../contract/domain';
import { authOf } from '../auth/plugin';
import { groupMembers, groups } from '../db/schema';
import type { Deps } from '../deps';

export async function groupRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  app.get('/groups/mine', async (req): Promise<Group[]> => {
    const { account } = authOf(req);
    const rows = await deps.db.select({ g: groups, accessLevel: groupMembers.accessLevel })
      .from(groupMembers).innerJoin(groups, eq(groups.id, groupMembers.groupId))
      .where(eq(groupMembers.accountId, account.id)).orderBy(groups.id);
    return rows.map(({ g, accessLevel }) => {
      const { name: _name, created: _created, ...rest } = g;
      return { ...rest, accessLevel: accessLevel === 1 ? 1 : 0 };
    });
  });
}
