import { dimse } from './dimse';
import { findStudyRoot, identifierOf, isParamsError } from './retrieve';
import { encoded } from './services';
import type { CFindRequest, ScpView } from './scpTypes';

const { CFindResponse } = dimse.responses;
const { Status, SopClass } = dimse.constants;

type FindCallback = (responses: InstanceType<typeof CFindResponse>[]) => void;

/** A C-FIND: the Modality Worklist (./services.ts) or the Study Root query; any other model is refused. */
export function findRequest(scp: ScpView, request: CFindRequest, callback: FindCallback): void {
  const { record } = scp.ctx;
  const bucketId = scp.bucketId;
  const fail = (status: number) => {
    const response = CFindResponse.fromRequest(request);
    response.setStatus(status);
    callback([response]);
  };
  if (bucketId === null) { fail(Status.ProcessingFailure); return; }
  if (request.getAffectedSopClassUid() === SopClass.StudyRootQueryRetrieveInformationModelFind) { studyRootFind(scp, bucketId, request, callback); return; }
  if (request.getAffectedSopClassUid() !== SopClass.ModalityWorklistInformationModelFind) { fail(Status.SopClassNotSupported); return; }
  record.services.add('mwl-find');
  void scp.ctx.track(scp.ctx.svc.worklist(bucketId, request.getDataset(), scp.contextSyntax)).then((items) => {
    record.found += items.length;
    const responses = items.map((item) => {
      const r = CFindResponse.fromRequest(request);
      r.setDataset(item);
      r.setStatus(Status.Pending);
      return r;
    });
    const done = CFindResponse.fromRequest(request);
    done.setStatus(Status.Success);
    callback([...responses, done]);
  }, (err: Error) => {
    record.error(`worklist: ${err.message}`);
    fail(0xc000);
  });
}

/** Study Root C-FIND (./retrieve.ts over the one Study Root query). */
function studyRootFind(scp: ScpView, bucketId: number, request: CFindRequest, callback: FindCallback): void {
  const { record } = scp.ctx;
  record.services.add('find');
  const answer = (status: number, comment?: string) => {
    const response = CFindResponse.fromRequest(request);
    response.setStatus(status);
    if (comment) response.setErrorComment(comment.slice(0, 64));
    return response;
  };
  const id = identifierOf(request.getDataset()?.getElements() ?? {});
  if (!id.ok) { record.error(`find: ${id.message}`); callback([answer(0xa900, id.message)]); return; }
  void scp.ctx.track(findStudyRoot(scp.ctx.deps, bucketId, id)).then((items) => {
    record.found += items.length;
    const responses = items.map((item) => {
      const r = CFindResponse.fromRequest(request);
      r.setDataset(encoded(item, scp.contextSyntax, 'ISO_IR 192'));
      r.setStatus(Status.Pending);
      return r;
    });
    callback([...responses, answer(Status.Success)]);
  }, (err: Error) => {
    record.error(`find: ${err.message}`);
    // A key of the wrong form (the query's ParamsError) does not match the SOP class; anything else is ours.
    callback([isParamsError(err) ? answer(0xa900, err.message) : answer(0xc000)]);
  });
}
