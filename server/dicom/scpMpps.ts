import { dimse } from './dimse';
import type { NCreateRequest, NSetRequest, ScpView } from './scpTypes';

const { Status } = dimse.constants;

/** An MPPS N-CREATE or N-SET, answered by the services' MPPS (./services.ts). */
export function mppsRequest<R extends { setStatus(s: number): void; setErrorComment?(c: string): void }>(
  scp: ScpView, op: 'create' | 'set', request: NCreateRequest | NSetRequest, callback: (response: R) => void,
  Response: { fromRequest(request: never): R },
): void {
  const { record } = scp.ctx;
  const answer = (status: number, comment?: string) => {
    const response = Response.fromRequest(request as never);
    response.setStatus(status);
    if (comment) response.setErrorComment?.(comment.slice(0, 64));
    callback(response);
  };
  const bucketId = scp.bucketId;
  if (bucketId === null) { answer(Status.ProcessingFailure); return; }
  record.services.add('mpps');
  const uid = op === 'create' ? request.getAffectedSopInstanceUid() : request.getRequestedSopInstanceUid();
  void scp.ctx.track(scp.ctx.svc.mpps(op, bucketId, scp.callingAe, uid, request.getDataset()))
    .then((r) => {
      if (r.status !== 0) record.error(`mpps ${op} ${uid}: ${r.comment ?? r.status}`);
      answer(r.status, r.comment);
    }, (err: Error) => {
      record.error(`mpps ${op}: ${err.message}`);
      answer(Status.ProcessingFailure);
    });
}
