import { createRequire } from 'node:module';
import type * as DcmjsDimse from 'dcmjs-dimse';

/**
 * dcmjs-dimse (DIMSE services over DICOM upper layer, PS3.7/3.8), loaded once. It is a CommonJS bundle whose named
 * exports Node's ESM loader cannot see, so it is required; its types come from its own index.d.ts.
 */
export const dimse = createRequire(import.meta.url)('dcmjs-dimse') as typeof DcmjsDimse;

// Its logger writes every PDU at info level; the listener keeps its own record (dicom_associations) and log.
dimse.log.setLevel('silent');
