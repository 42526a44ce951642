import { DICOM_MAX_BYTES } from '../../contract/uploads';
import type { Deps } from '../deps';
import { charsetsOf, dimse } from './dimse';
import { encodeDataSet, type Item } from './encode';
import { applyMpps, type MppsAnswer } from './mpps';
import { findWorklist, worklistQuery } from './worklist';

type Dataset = InstanceType<typeof dimse.Dataset>;

const IMPLICIT_LE = '1.2.840.10008.1.2';

/**
 * A data set the listener wrote itself (./encode.ts), handed to dcmjs-dimse as is: already in the presentation
 * context's transfer syntax, so the library neither transcodes nor re-encodes it (it would write text as UTF-8
 * whatever the character set).
 */
class EncodedDataset extends dimse.Dataset {
  constructor(private readonly bytes: Buffer, private readonly syntax: string) { super({}, syntax); }
  override getDenaturalizedDataset(): Buffer { return this.bytes; }
  override getTransferSyntaxUid(): string { return this.syntax; }
}

export function encoded(item: Item, transferSyntaxUid: string, charset: 'ISO_IR 192' | 'GB18030'): Dataset {
  return new EncodedDataset(encodeDataSet(item, { explicit: transferSyntaxUid !== IMPLICIT_LE, charset }), transferSyntaxUid);
}

/** The listener's services beyond storage, over the database: the Modality Worklist and MPPS. */
export interface Services {
  maxFileBytes: number;
  worklist(bucketId: number, query: Dataset | undefined, transferSyntaxUid: string): Promise<Dataset[]>;
  mpps(op: 'create' | 'set', bucketId: number, callingAe: string, sopInstanceUid: string, dataset: Dataset | undefined): Promise<MppsAnswer>;
}

export function services(deps: Deps): Services {
  return {
    maxFileBytes: DICOM_MAX_BYTES,
    async worklist(bucketId, query, transferSyntaxUid) {
      const q = worklistQuery(query?.getElements() ?? {}, charsetsOf(query));
      const items = await findWorklist(deps, bucketId, q);
      return items.map((item) => encoded(item, transferSyntaxUid, q.charset));
    },
    mpps: (op, bucketId, callingAe, uid, dataset) => applyMpps(deps, { op, bucketId, callingAe, sopInstanceUid: uid, attributes: dataset?.getElements() ?? {} }),
  };
}
