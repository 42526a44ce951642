import { inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  GLOBAL_CONFIG_DEFAULTS, GLOBAL_CONFIG_VALUES, globalConfigQuery, type GlobalConfigAnswer, type GlobalConfigKey, type GlobalConfigs,
} from '../../contract/globalConfigs';
import { authOf } from '../auth/plugin';
import type { Db } from '../db/client';
import { globalConfigs } from '../db/schema';
import type { Deps } from '../deps';
import { parse } from '../http/validate';

/** The stored values of `keys`, each checked against its kind; a missing or unreadable row gives the default. */
export async function readGlobalConfigs<K extends GlobalConfigKey>(db: Db, keys: readonly K[]): Promise<Pick<GlobalConfigs, K>> {
  const rows = keys.length === 0 ? [] : await db.select().from(globalConfigs).where(inArray(globalConfigs.key, [...keys]));
  const stored = new Map(rows.map((r) => [r.key, r.value]));
  const out = {} as Record<GlobalConfigKey, unknown>;
  for (const key of keys) {
    const checked = GLOBAL_CONFIG_VALUES[key].safeParse(stored.get(key));
    out[key] = checked.success ? checked.data : GLOBAL_CONFIG_DEFAULTS[key];
  }
  return out as Pick<GlobalConfigs, K>;
}

/** GET global-configs/query?keys=a,b (areas §7): any signed-in account; keys outside the whitelist are 400 ParamsError. */
export async function globalConfigRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  app.get('/global-configs/query', async (req): Promise<GlobalConfigAnswer> => {
    authOf(req);
    const { keys } = parse(globalConfigQuery, req.query);
    return readGlobalConfigs(deps.db, keys);
  });
}
