import { dimse } from './dimse';
import { part10 } from './part10';
import { receiveInstance } from './receive';
import type { CStoreRequest, ScpView } from './scpTypes';
import type { Collector } from './storeRules';

const { CStoreResponse } = dimse.responses;
const { Status } = dimse.constants;

/** A C-STORE: the collected bytes wrapped as a Part 10 file and stored through the one ingest path (./receive.ts). */
export function storeRequest(scp: ScpView, request: CStoreRequest, collector: Collector | undefined,
  callback: (response: InstanceType<typeof CStoreResponse>) => void): void {
  const { record } = scp.ctx;
  record.services.add('store');
  const answer = (status: number, comment?: string) => {
    const response = CStoreResponse.fromRequest(request);
    response.setStatus(status);
    if (comment) response.setErrorComment(comment.slice(0, 64));
    callback(response);
  };
  const bucketId = scp.bucketId;
  if (!collector || bucketId === null) { record.failed++; answer(Status.ProcessingFailure); return; }
  if (collector.overflow) {
    record.failed++;
    record.error(`${request.getAffectedSopInstanceUid()}: larger than ${scp.ctx.svc.maxFileBytes} bytes`);
    answer(0xa700, 'File too large');
    return;
  }
  const bytes = part10({
    sopClassUid: request.getAffectedSopClassUid(), sopInstanceUid: request.getAffectedSopInstanceUid(),
    transferSyntaxUid: collector.transferSyntaxUid, sourceAe: scp.callingAe,
    dataSet: collector.chunks.length === 1 ? collector.chunks[0]! : Buffer.concat(collector.chunks, collector.size),
  });
  collector.chunks = [];
  void scp.ctx.track(receiveInstance(scp.ctx.deps, bucketId, bytes, {
    kind: 'dimse', callingAe: scp.callingAe, associationId: record.id,
  })).then((r) => {
    if (r.ok) { record.stored++; answer(r.dimseStatus); return; }
    record.failed++;
    record.error(`${r.sopInstanceUid ?? request.getAffectedSopInstanceUid()}: ${r.code} ${r.message}`);
    answer(r.dimseStatus, r.message);
  }, (err: Error) => {
    record.failed++;
    record.error(err.message);
    answer(Status.ProcessingFailure);
  });
}
