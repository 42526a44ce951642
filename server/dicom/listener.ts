import net, { type Socket } from 'node:net';
import tls from 'node:tls';
import type { Writable } from 'node:stream';
import type { Deps } from '../deps';
import { AssociationRecord, callerOf } from './association';
import { dimse } from './dimse';
import { guardPdus } from './guard';
import { IMPLEMENTATION_CLASS_UID, IMPLEMENTATION_VERSION, part10 } from './part10';
import { receiveInstance } from './receive';
import { destinationOf, filesOf, findStudyRoot, identifierOf, isParamsError, type StoredFile } from './retrieve';
import { MoveAssociation, retrieveAnswer, retrieveStatus, runSubOperations, type RetrieveCounts, type RetrieveResponse } from './subops';
import { encoded, services, type Services } from './services';
import { Collector, isStorableSyntax, isStorage, NATIVE, NON_STORAGE, UNCOMPRESSED } from './storeRules';

type Association = InstanceType<typeof dimse.association.Association>;
type PresentationContext = InstanceType<typeof dimse.association.PresentationContext>;
type CStoreRequest = InstanceType<typeof dimse.requests.CStoreRequest>;
type CEchoRequest = InstanceType<typeof dimse.requests.CEchoRequest>;
type CFindRequest = InstanceType<typeof dimse.requests.CFindRequest>;
type CMoveRequest = InstanceType<typeof dimse.requests.CMoveRequest>;
type CGetRequest = InstanceType<typeof dimse.requests.CGetRequest>;
type NCreateRequest = InstanceType<typeof dimse.requests.NCreateRequest>;
type NSetRequest = InstanceType<typeof dimse.requests.NSetRequest>;
type CCancelRequest = InstanceType<typeof dimse.requests.CCancelRequest>;
type Dataset = InstanceType<typeof dimse.Dataset>;

const { Scp, Dataset } = dimse;
const { CEchoResponse, CStoreResponse, CFindResponse, CMoveResponse, CGetResponse, NCreateResponse, NSetResponse } = dimse.responses;
const { PresentationContextResult, RejectResult, RejectSource, RejectReason, Status, SopClass } = dimse.constants;

/**
 * The DICOM listener (issue 33): an SCP on its own TCP (or TLS) port, started by server/main.ts. Every association is
 * checked (our AE title called, the caller one of an organisation's devices: ./association.ts) and recorded
 * (dicom_associations); C-ECHO; C-STORE of every storage SOP class in any transfer syntax the upload reads, through
 * the one ingest path (./receive.ts); the Modality Worklist and MPPS (./services.ts). Bytes are screened before the
 * library parses them (./guard.ts): an impossible PDU aborts that association, and only it.
 */
export interface DicomListenerOptions {
  port: number;
  /** Loopback in tests; all interfaces by default. */
  host?: string;
  aeTitle: string;
  tls?: { cert: string; key: string } | null;
  /** Where the listener reports what went wrong outside an association (the server's logger). */
  log?: { warn: (msg: string) => void; info: (msg: string) => void };
}

export interface DicomListener {
  port: number;
  aeTitle: string;
  close(): Promise<void>;
}

export async function startDicomListener(deps: Deps, opts: DicomListenerOptions): Promise<DicomListener> {
  dimse.Implementation.setImplementationClassUid(IMPLEMENTATION_CLASS_UID);
  dimse.Implementation.setImplementationVersion(IMPLEMENTATION_VERSION);
  const aeTitle = opts.aeTitle.trim();
  const svc = services(deps);
  const sockets = new Set<Socket>();
  const pending = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>): Promise<T> => {
    pending.add(p);
    p.finally(() => pending.delete(p)).catch(() => undefined);
    return p;
  };

  const onConnection = (socket: Socket) => {
    sockets.add(socket);
    // DIMSE is request/response in small PDUs written one after another (a C-FIND-RSP's command, its data set, the
    // final response): with Nagle on, each small write after the first waits for the peer's delayed ACK (~40 ms on
    // Linux), and a one-answer query paid it several times (p50 ~108 ms, bench:dicom). Off, as dcmtk does.
    socket.setNoDelay(true);
    socket.on('close', () => sockets.delete(socket));
    // A socket error is the end of that association; it must never become the process's.
    socket.on('error', () => undefined);
    const record = new AssociationRecord(deps, deps.clock.now(), `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? 0}`);
    guardPdus(socket, (why) => { record.error(why); record.outcome = 'aborted'; });
    const scp = new RadScp(socket, { associationTimeout: 30_000, pduTimeout: 60_000, connectTimeout: 120_000 });
    scp.ctx = { deps, aeTitle, record, svc, track };
    (scp as unknown as { connected: boolean }).connected = true;
    scp.on('networkError', (err: Error) => {
      record.error(err.message);
      if (record.outcome === 'accepted') record.outcome = 'aborted';
      socket.destroy();
    });
    socket.on('close', () => { void track(record.close().catch((err: Error) => opts.log?.warn(`dicom: association record: ${err.message}`))); });
  };

  const server = opts.tls ? tls.createServer({ cert: opts.tls.cert, key: opts.tls.key }, onConnection) : net.createServer(onConnection);
  server.on('error', (err) => opts.log?.warn(`dicom: ${err.message}`));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '0.0.0.0', () => { server.off('error', reject); resolve(); });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  opts.log?.info(`DICOM listener ${aeTitle} on port ${port}${opts.tls ? ' (TLS)' : ''}`);
  return {
    port, aeTitle,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
      // Files being stored and association records being written finish before the database goes.
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}

interface ScpContext {
  deps: Deps;
  aeTitle: string;
  record: AssociationRecord;
  svc: Services;
  track: <T>(p: Promise<T>) => Promise<T>;
}

/** One association's SCP: dcmjs-dimse's Scp with the product's rules. */
class RadScp extends Scp {
  ctx!: ScpContext;
  private bucketId: number | null = null;
  private callingAe = '';
  private readonly received = new WeakMap<object, Collector>();
  /** The transfer syntax of the presentation context the request being handled came on (dcmjs-dimse knows, and says only here). */
  private contextSyntax = '1.2.840.10008.1.2';
  /** That presentation context itself (a retrieve's Pending responses are sent on it). */
  private context: PresentationContext | null = null;

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the library's internal dispatch, not in its types
  _performDimse(context: PresentationContext, command: any): void {
    this.contextSyntax = context.getAcceptedTransferSyntaxUid() ?? '1.2.840.10008.1.2';
    this.context = context;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
    (Scp.prototype as any)._performDimse.call(this, context, command);
  }

  override associationRequested(association: Association): void {
    void this.ctx.track(this.decide(association)).catch((err: Error) => {
      this.ctx.record.error(err.message);
      this.sendAssociationReject(RejectResult.Transient, RejectSource.ServiceUser, RejectReason.NoReasonGiven);
    });
  }

  private async decide(association: Association) {
    const called = association.getCalledAeTitle().trim();
    const calling = association.getCallingAeTitle().trim();
    this.callingAe = calling;
    const { record } = this.ctx;
    if (called !== this.ctx.aeTitle) {
      record.error(`called AE ${called} is not ${this.ctx.aeTitle}`);
      await record.open(calling, called, 'rejected', null);
      this.sendAssociationReject(RejectResult.Permanent, RejectSource.ServiceUser, RejectReason.CalledAeNotRecognized);
      return;
    }
    const caller = await callerOf(this.ctx.deps, calling);
    if (!caller.ok) {
      record.error(caller.reason === 'ambiguousCallingAe' ? `calling AE ${calling} belongs to devices of several organisations` : `calling AE ${calling} is not a device of any organisation`);
      await record.open(calling, called, 'rejected', null);
      this.sendAssociationReject(RejectResult.Permanent, RejectSource.ServiceUser, RejectReason.CallingAeNotRecognized);
      return;
    }
    this.bucketId = caller.bucketId;
    for (const c of association.getPresentationContexts()) {
      const context = association.getPresentationContext(c.id);
      const abstract = context.getAbstractSyntaxUid();
      const proposed = context.getTransferSyntaxUids();
      if (isStorage(abstract)) {
        // The data set is stored as it comes: a compressed (or deflated) syntax the sender proposes is taken first,
        // since it proposes it only for files it holds that way; else explicit, implicit little endian, big endian.
        const ts = proposed.find((t) => isStorableSyntax(t) && !UNCOMPRESSED.includes(t)) ?? UNCOMPRESSED.find((t) => proposed.includes(t));
        if (ts) context.setResult(PresentationContextResult.Accept, ts);
        else context.setResult(PresentationContextResult.RejectTransferSyntaxesNotSupported);
      } else if (NON_STORAGE.has(abstract)) {
        const ts = NATIVE.find((t) => proposed.includes(t));
        if (ts) context.setResult(PresentationContextResult.Accept, ts);
        else context.setResult(PresentationContextResult.RejectTransferSyntaxesNotSupported);
      } else {
        context.setResult(PresentationContextResult.RejectAbstractSyntaxNotSupported);
      }
    }
    await record.open(calling, called, 'accepted', caller.bucketId);
    this.sendAssociationAccept();
  }

  override associationReleaseRequested(): void {
    this.ctx.record.outcome = 'released';
    this.sendAssociationReleaseResponse();
  }

  override abort(): void {
    // A peer's A-ABORT: whatever file was on its way is dropped with its collector; nothing of it is stored.
    this.ctx.record.outcome = 'aborted';
  }

  override cEchoRequest(request: CEchoRequest, callback: (response: InstanceType<typeof CEchoResponse>) => void): void {
    this.ctx.record.services.add('echo');
    const response = CEchoResponse.fromRequest(request);
    response.setStatus(Status.Success);
    callback(response);
  }

  override createStoreWritableStream(context: PresentationContext, _request: CStoreRequest): Writable {
    return new Collector(this.ctx.svc.maxFileBytes, context.getAcceptedTransferSyntaxUid() ?? '1.2.840.10008.1.2');
  }

  override createDatasetFromStoreWritableStream(writable: Writable, _context: PresentationContext, callback: (dataset: Dataset) => void): void {
    // The data set is not parsed here: its bytes are stored as they came. A placeholder stands for it in the request.
    const placeholder = new Dataset({});
    this.received.set(placeholder, writable as Collector);
    callback(placeholder);
  }

  override cStoreRequest(request: CStoreRequest, callback: (response: InstanceType<typeof CStoreResponse>) => void): void {
    const { record } = this.ctx;
    record.services.add('store');
    const dataset = request.getDataset();
    const collector = dataset ? this.received.get(dataset) : undefined;
    const answer = (status: number, comment?: string) => {
      const response = CStoreResponse.fromRequest(request);
      response.setStatus(status);
      if (comment) response.setErrorComment(comment.slice(0, 64));
      callback(response);
    };
    if (!collector || this.bucketId === null) { record.failed++; answer(Status.ProcessingFailure); return; }
    if (collector.overflow) {
      record.failed++;
      record.error(`${request.getAffectedSopInstanceUid()}: larger than ${this.ctx.svc.maxFileBytes} bytes`);
      answer(0xa700, 'File too large');
      return;
    }
    const bytes = part10({
      sopClassUid: request.getAffectedSopClassUid(), sopInstanceUid: request.getAffectedSopInstanceUid(),
      transferSyntaxUid: collector.transferSyntaxUid, sourceAe: this.callingAe,
      dataSet: collector.chunks.length === 1 ? collector.chunks[0]! : Buffer.concat(collector.chunks, collector.size),
    });
    collector.chunks = [];
    void this.ctx.track(receiveInstance(this.ctx.deps, this.bucketId, bytes, {
      kind: 'dimse', callingAe: this.callingAe, associationId: record.id,
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

  override cFindRequest(request: CFindRequest, callback: (responses: InstanceType<typeof CFindResponse>[]) => void): void {
    const { record } = this.ctx;
    const bucketId = this.bucketId;
    const fail = (status: number) => {
      const response = CFindResponse.fromRequest(request);
      response.setStatus(status);
      callback([response]);
    };
    if (bucketId === null) { fail(Status.ProcessingFailure); return; }
    if (request.getAffectedSopClassUid() === SopClass.StudyRootQueryRetrieveInformationModelFind) { this.studyRootFind(bucketId, request, callback); return; }
    if (request.getAffectedSopClassUid() !== SopClass.ModalityWorklistInformationModelFind) { fail(Status.SopClassNotSupported); return; }
    record.services.add('mwl-find');
    void this.ctx.track(this.ctx.svc.worklist(bucketId, request.getDataset(), this.contextSyntax)).then((items) => {
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
  private studyRootFind(bucketId: number, request: CFindRequest, callback: (responses: InstanceType<typeof CFindResponse>[]) => void): void {
    const { record } = this.ctx;
    record.services.add('find');
    const answer = (status: number, comment?: string) => {
      const response = CFindResponse.fromRequest(request);
      response.setStatus(status);
      if (comment) response.setErrorComment(comment.slice(0, 64));
      return response;
    };
    const id = identifierOf(request.getDataset()?.getElements() ?? {});
    if (!id.ok) { record.error(`find: ${id.message}`); callback([answer(0xa900, id.message)]); return; }
    void this.ctx.track(findStudyRoot(this.ctx.deps, bucketId, id)).then((items) => {
      record.found += items.length;
      const responses = items.map((item) => {
        const r = CFindResponse.fromRequest(request);
        r.setDataset(encoded(item, this.contextSyntax, 'ISO_IR 192'));
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

  /** The retrieves under way on this association, by message id, and whether the SCU cancelled each (C-CANCEL). */
  private readonly retrieves = new Map<number, { cancelled: boolean }>();

  override cCancelRequest(request: CCancelRequest): void {
    // A cancel of a C-FIND comes too late here (its answers are sent at once); one of a C-MOVE or C-GET stops it between two files.
    const retrieve = this.retrieves.get(request.getMessageIdBeingRespondedTo());
    if (retrieve) retrieve.cancelled = true;
  }

  /**
   * A C-MOVE or C-GET: the files the identifier names (rows only; each is read from storage when it is sent), a Pending
   * response after each sub-operation, and the final response with the counts.
   */
  private retrieve<R extends RetrieveResponse>(kind: 'move' | 'get', request: CMoveRequest | CGetRequest, callback: (responses: R[]) => void,
    respond: () => R, store: (bucketId: number, files: StoredFile[]) => Promise<{ store: (ds: Dataset) => Promise<number | null>; close: () => Promise<void> } | R>): void {
    const { record } = this.ctx;
    record.services.add(kind);
    const answer = (status: number, counts: RetrieveCounts, comment?: string) => retrieveAnswer(respond(), status, counts, comment);
    const none = { remaining: 0, completed: 0, failed: 0, warnings: 0 };
    const bucketId = this.bucketId;
    if (bucketId === null) { callback([answer(Status.ProcessingFailure, none)]); return; }
    // The library's callback may be called once (its event emitter says so): the Pending responses go out by its own sender.
    const context = this.context;
    const sendPending = (response: R) => {
      if (context) (this as unknown as { _sendDimse(m: { context: PresentationContext; command: unknown }): void })._sendDimse({ context, command: response });
    };
    const messageId = request.getMessageId();
    const state = { cancelled: false };
    this.retrieves.set(messageId, state);
    const work = async (): Promise<R[]> => {
      const id = identifierOf(request.getDataset()?.getElements() ?? {});
      if (!id.ok) { record.error(`${kind}: ${id.message}`); return [answer(0xa900, none, id.message)]; }
      const files = await filesOf(this.ctx.deps, bucketId, id);
      const sender = await store(bucketId, files);
      if (!('store' in sender)) return [sender];
      const run = await runSubOperations({
        deps: this.ctx.deps, files, store: sender.store, cancelled: () => state.cancelled,
        pending: (counts) => sendPending(answer(Status.Pending, counts)),
        error: (message) => record.error(`${kind}: ${message}`),
      }).finally(() => sender.close());
      record.sent += run.counts.completed + run.counts.warnings;
      record.failed += run.counts.failed;
      // Remaining is said only in a Cancel's final response (PS3.4 C.4.2.1.6).
      return [answer(retrieveStatus(run.counts, run.cancelled), { ...run.counts, remaining: run.cancelled ? run.counts.remaining : 0 })];
    };
    void this.ctx.track(work()).then(callback, (err: Error) => {
      record.error(`${kind}: ${err.message}`);
      callback([answer(isParamsError(err) ? 0xa900 : 0xc000, none)]);
    }).finally(() => this.retrieves.delete(messageId));
  }

  override cMoveRequest(request: CMoveRequest, callback: (responses: InstanceType<typeof CMoveResponse>[]) => void): void {
    const destinationAe = String(request.getCommandDataset().getElement('MoveDestination') ?? '').trim();
    const respond = () => CMoveResponse.fromRequest(request);
    this.retrieve('move', request, callback, respond, async (bucketId, files) => {
      const destination = await destinationOf(this.ctx.deps, bucketId, destinationAe);
      if (!destination) {
        this.ctx.record.error(`move: destination ${destinationAe || '(none)'} unknown`);
        return retrieveAnswer(respond(), 0xa801, { remaining: 0, completed: 0, failed: 0, warnings: 0 }, 'Move destination unknown');
      }
      const association = new MoveAssociation(destination, this.ctx.aeTitle, this.callingAe, files);
      return {
        store: (ds) => association.store(ds),
        close: async () => {
          await association.close();
          if (association.error && association.error !== 'association closed') this.ctx.record.error(`move to ${destination.aeTitle}: ${association.error}`);
        },
      };
    });
  }

  override cGetRequest(request: CGetRequest, callback: (responses: InstanceType<typeof CGetResponse>[]) => void): void {
    // Sub-operations on this association, one after the other, on the storage contexts the peer offered as SCP.
    this.retrieve('get', request, callback, () => CGetResponse.fromRequest(request), () => Promise.resolve({ store: (ds) => this.storeHere(ds), close: () => Promise.resolve() }));
  }

  /** One C-STORE sub-operation of a C-GET, sent on this association; the peer's status, or null when none came. */
  private storeHere(dataset: Dataset): Promise<number | null> {
    // The library's own request bookkeeping (message ids, pending requests matched to their responses), not in its types.
    const self = this as unknown as {
      association: { getAcceptedPresentationContextFromRequest(r: unknown): PresentationContext | undefined };
      _getNextMessageId(): number; pending: unknown[]; _sendDimse(m: { context: PresentationContext; command: unknown }): void;
    };
    const request = new dimse.requests.CStoreRequest(dataset);
    const context = self.association.getAcceptedPresentationContextFromRequest(request);
    if (!context) {
      this.ctx.record.error(`get: no storage context for ${String(dataset.getElement('SOPClassUID'))} accepted`);
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

  override nCreateRequest(request: NCreateRequest, callback: (response: InstanceType<typeof NCreateResponse>) => void): void {
    this.mpps('create', request, callback, NCreateResponse);
  }

  override nSetRequest(request: NSetRequest, callback: (response: InstanceType<typeof NSetResponse>) => void): void {
    this.mpps('set', request, callback, NSetResponse);
  }

  private mpps<R extends { setStatus(s: number): void; setErrorComment?(c: string): void }>(
    op: 'create' | 'set', request: NCreateRequest | NSetRequest, callback: (response: R) => void,
    Response: { fromRequest(request: never): R },
  ): void {
    const { record } = this.ctx;
    const answer = (status: number, comment?: string) => {
      const response = Response.fromRequest(request as never);
      response.setStatus(status);
      if (comment) response.setErrorComment?.(comment.slice(0, 64));
      callback(response);
    };
    if (this.bucketId === null) { answer(Status.ProcessingFailure); return; }
    record.services.add('mpps');
    const uid = op === 'create' ? request.getAffectedSopInstanceUid() : request.getRequestedSopInstanceUid();
    void this.ctx.track(this.ctx.svc.mpps(op, this.bucketId, this.callingAe, uid, request.getDataset()))
      .then((r) => {
        if (r.status !== 0) record.error(`mpps ${op} ${uid}: ${r.comment ?? r.status}`);
        answer(r.status, r.comment);
      }, (err: Error) => {
        record.error(`mpps ${op}: ${err.message}`);
        answer(Status.ProcessingFailure);
      });
  }
}
