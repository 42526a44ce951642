import { dimse } from './dimse';
import { destinationOf, filesOf, identifierOf, isParamsError, type StoredFile } from './retrieve';
import { MoveAssociation, retrieveAnswer, retrieveStatus, runSubOperations, type RetrieveCounts, type RetrieveResponse } from './subops';
import type { CGetRequest, CMoveRequest, Dataset, PresentationContext, ScpView } from './scpTypes';

const { CMoveResponse, CGetResponse } = dimse.responses;
const { Status } = dimse.constants;

/** An association as a retrieve reads it: the handlers' view, plus the context the request came on and the retrieves under way. */
export interface RetrieveScp extends ScpView {
  /** The presentation context the request being handled came on (a retrieve's Pending responses are sent on it). */
  readonly context: PresentationContext | null;
  /** The retrieves under way on this association, by message id, and whether the SCU cancelled each (C-CANCEL). */
  readonly retrieves: Map<number, { cancelled: boolean }>;
}

/** The library's own sender and request bookkeeping (message ids, pending requests matched to responses), not in its types. */
interface ScpInsides {
  association: { getAcceptedPresentationContextFromRequest(r: unknown): PresentationContext | undefined };
  _getNextMessageId(): number;
  pending: unknown[];
  _sendDimse(m: { context: PresentationContext; command: unknown }): void;
}

interface Sender { store: (ds: Dataset) => Promise<number | null>; close: () => Promise<void> }

const NONE: RetrieveCounts = { remaining: 0, completed: 0, failed: 0, warnings: 0 };

/**
 * A C-MOVE or C-GET: the files the identifier names (rows only; each is read from storage when it is sent), a Pending
 * response after each sub-operation, and the final response with the counts.
 */
function retrieve<R extends RetrieveResponse>(scp: RetrieveScp, kind: 'move' | 'get', request: CMoveRequest | CGetRequest,
  callback: (responses: R[]) => void, respond: () => R, store: (bucketId: number, files: StoredFile[]) => Promise<Sender | R>): void {
  const { record } = scp.ctx;
  record.services.add(kind);
  const answer = (status: number, counts: RetrieveCounts, comment?: string) => retrieveAnswer(respond(), status, counts, comment);
  const bucketId = scp.bucketId;
  if (bucketId === null) { callback([answer(Status.ProcessingFailure, NONE)]); return; }
  // The library's callback may be called once (its event emitter says so): the Pending responses go out by its own sender.
  const context = scp.context;
  const sendPending = (response: R) => {
    if (context) (scp as unknown as ScpInsides)._sendDimse({ context, command: response });
  };
  const messageId = request.getMessageId();
  const state = { cancelled: false };
  scp.retrieves.set(messageId, state);
  const work = async (): Promise<R[]> => {
    const id = identifierOf(request.getDataset()?.getElements() ?? {});
    if (!id.ok) { record.error(`${kind}: ${id.message}`); return [answer(0xa900, NONE, id.message)]; }
    const files = await filesOf(scp.ctx.deps, bucketId, id);
    const sender = await store(bucketId, files);
    if (!('store' in sender)) return [sender];
    const run = await runSubOperations({
      deps: scp.ctx.deps, files, store: sender.store, cancelled: () => state.cancelled,
      pending: (counts) => sendPending(answer(Status.Pending, counts)),
      error: (message) => record.error(`${kind}: ${message}`),
    }).finally(() => sender.close());
    record.sent += run.counts.completed + run.counts.warnings;
    record.failed += run.counts.failed;
    // Remaining is said only in a Cancel's final response (PS3.4 C.4.2.1.6).
    return [answer(retrieveStatus(run.counts, run.cancelled), { ...run.counts, remaining: run.cancelled ? run.counts.remaining : 0 })];
  };
  void scp.ctx.track(work()).then(callback, (err: Error) => {
    record.error(`${kind}: ${err.message}`);
    callback([answer(isParamsError(err) ? 0xa900 : 0xc000, NONE)]);
  }).finally(() => scp.retrieves.delete(messageId));
}

/** A C-MOVE: the files sent on a new association to the destination device the request names. */
export function moveRequest(scp: RetrieveScp, request: CMoveRequest, callback: (responses: InstanceType<typeof CMoveResponse>[]) => void): void {
  const destinationAe = String(request.getCommandDataset().getElement('MoveDestination') ?? '').trim();
  const respond = () => CMoveResponse.fromRequest(request);
  retrieve(scp, 'move', request, callback, respond, async (bucketId, files) => {
    const destination = await destinationOf(scp.ctx.deps, bucketId, destinationAe);
    if (!destination) {
      scp.ctx.record.error(`move: destination ${destinationAe || '(none)'} unknown`);
      return retrieveAnswer(respond(), 0xa801, NONE, 'Move destination unknown');
    }
    const association = new MoveAssociation(destination, scp.ctx.aeTitle, scp.callingAe, files);
    return {
      store: (ds) => association.store(ds),
      close: async () => {
        await association.close();
        if (association.error && association.error !== 'association closed') scp.ctx.record.error(`move to ${destination.aeTitle}: ${association.error}`);
      },
    };
  });
}

/** A C-GET: sub-operations on this association, one after the other, on the storage contexts the peer offered as SCP. */
export function getRequest(scp: RetrieveScp, request: CGetRequest, callback: (responses: InstanceType<typeof CGetResponse>[]) => void): void {
  retrieve(scp, 'get', request, callback, () => CGetResponse.fromRequest(request),
    () => Promise.resolve({ store: (ds) => storeHere(scp, ds), close: () => Promise.resolve() }));
}

/** One C-STORE sub-operation of a C-GET, sent on this association; the peer's status, or null when none came. */
function storeHere(scp: RetrieveScp, dataset: Dataset): Promise<number | null> {
  const self = scp as unknown as ScpInsides;
  const request = new dimse.requests.CStoreRequest(dataset);
  const context = self.association.getAcceptedPresentationContextFromRequest(request);
  if (!context) {
    scp.ctx.record.error(`get: no storage context for ${String(dataset.getElement('SOPClassUID'))} accepted`);
    return Promise.resolve(null);
  }
  return new Promise((resolve) => {
    let status: number | null = null;
    request.on('response', (r: { getStatus(): number }) => { status = r.getStatus(); });
    request.on('done', () => resolve(status));
    request.setMessageId(self._getNextMessageId());
    self.pending.push(request);
    self._sendDimse({ context, command: request });
  });
}
