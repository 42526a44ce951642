import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps';
import { groupCoreRoutes } from './group';
import { memberRoutes } from './members';
import { organizationRoutes } from './organizations';
import { ruleRoutes } from './rules';
import { settingsRoutes } from './settings';

/**
 * Groups (areas §3 Group, §5, §6, §7 "Groups"): the group and its flags (group.ts), members (members.ts), organisations
 * (organizations.ts), assign rules (rules.ts, applied by assign.ts) and the lists its settings name (settings.ts).
 * Permissions are access.ts's: 404 outside the group, 403 for a member where its admin is needed.
 */
export async function groupRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  await groupCoreRoutes(app, deps);
  await memberRoutes(app, deps);
  await organizationRoutes(app, deps);
  await ruleRoutes(app, deps);
  await settingsRoutes(app, deps);
}
