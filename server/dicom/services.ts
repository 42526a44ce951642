import { DICOM_MAX_BYTES } from '../../contract/uploads';
import type { Deps } from '../deps';
import type { dimse } from './dimse';

type Dataset = InstanceType<typeof dimse.Dataset>;

/** The listener's services beyond storage, over the database: the Modality Worklist and MPPS. */
export interface Services {
  maxFileBytes: number;
  worklist(bucketId: number, query: Dataset | undefined): Promise<Dataset[]>;
  mpps(op: 'create' | 'set', bucketId: number, callingAe: string, sopInstanceUid: string, dataset: Dataset | undefined): Promise<{ status: number; comment?: string }>;
}

export function services(_deps: Deps): Services {
  return {
    maxFileBytes: DICOM_MAX_BYTES,
    worklist: async () => [],
    mpps: async () => ({ status: 0x0110, comment: 'not yet' }),
  };
}
