import type { GlobalConfigs } from '../../contract/globalConfigs';
import type { Db } from '../db/client';
import { globalConfigs } from '../db/schema';

/** The demo deployment's global settings (contract/globalConfigs.ts): a support desk, a manual, the drawing limit. */
export const DEMO_GLOBAL_CONFIGS: GlobalConfigs = {
  supportPhone: '400-820-6688',
  supportEmail: 'support@demo.local',
  helpUrl: 'https://demo.local/manual/',
  learningEnabled: true,
  sampleGraphMaxMb: 5,
};

/** Writes the entries; a key that already has a value keeps it (an operator's change survives a re-seed). */
export async function seedGlobalConfigs(db: Db, now: Date): Promise<void> {
  await db.insert(globalConfigs)
    .values(Object.entries(DEMO_GLOBAL_CONFIGS).map(([key, value]) => ({ key, value, updated: now })))
    .onConflictDoNothing({ target: globalConfigs.key });
}
