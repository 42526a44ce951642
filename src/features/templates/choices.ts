import type { TreeOwner } from './api';

/** A tree the user may open here: an organisation's (with template_upsert) or a group's shared one. */
export interface TreeChoice {
  key: string;
  owner: TreeOwner;
  label: string;
  canWrite: boolean;
  kind: 'bucket' | 'group';
}
