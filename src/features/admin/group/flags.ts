import type { PatchGroupInput } from '../../../../contract/groups';

/** The group's on/off settings (areas §3, §6: each switches a feature for every member at their next request). */
export const FLAG_KEYS = [
  'enableRegistry', 'enableCalling', 'enableStat', 'enableConsultation', 'openTelemed', 'enableCredit', 'allowOverview',
  'allowAccountMgmt', 'featEncryptionViewerOn', 'isGroupKb', 'allowRegistration', 'searchInGroup',
] as const satisfies readonly (keyof PatchGroupInput)[];
export type FlagKey = (typeof FLAG_KEYS)[number];
