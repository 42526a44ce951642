import net, { type Socket } from 'node:net';
import tls from 'node:tls';
import type { Writable } from 'node:stream';
import type { Deps } from '../deps';
import { AssociationRecord, callerOf } from './association';
import { dimse } from './dimse';
import { guardPdus } from './guard';
import { IMPLEMENTATION_CLASS_UID, IMPLEMENTATION_VERSION } from './part10';
import { findRequest } from './scpFind';
import { mppsRequest } from './scpMpps';
import { getRequest, moveRequest, type RetrieveScp } from './scpRetrieve';
import { storeRequest } from './scpStore';
import type {
  Association, CCancelRequest, CEchoRequest, CFindRequest, CGetRequest, CMoveRequest, CStoreRequest, NCreateRequest, NSetRequest,
  PresentationContext, ScpContext,
} from './scpTypes';
import { services } from './services';
import { Collector, isStorableSyntax, isStorage, NATIVE, NON_STORAGE, UNCOMPRESSED } from './storeRules';

type Dataset = InstanceType<typeof dimse.Dataset>;

const { Scp, Dataset } = dimse;
const { CEchoResponse, CStoreResponse, CFindResponse, CMoveResponse, CGetResponse, NCreateResponse, NSetResponse } = dimse.responses;
const { PresentationContextResult, RejectResult, RejectSource, RejectReason, Status } = dimse.constants;

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

/** One association's SCP: dcmjs-dimse's Scp with the product's rules. */
class RadScp extends Scp implements RetrieveScp {
  ctx!: ScpContext;
  bucketId: number | null = null;
  callingAe = '';
  private readonly received = new WeakMap<object, Collector>();
  /** The transfer syntax of the presentation context the request being handled came on (dcmjs-dimse knows, and says only here). */
  contextSyntax = '1.2.840.10008.1.2';
  /** That presentation context itself (a retrieve's Pending responses are sent on it). */
  context: PresentationContext | null = null;
  /** The retrieves under way on this association, by message id, and whether the SCU cancelled each (C-CANCEL). */
  readonly retrieves = new Map<number, { cancelled: boolean }>();

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
    const dataset = request.getDataset();
    storeRequest(this, request, dataset ? this.received.get(dataset) : undefined, callback);
  }

  override cFindRequest(request: CFindRequest, callback: (responses: InstanceType<typeof CFindResponse>[]) => void): void {
    findRequest(this, request, callback);
  }

  override cCancelRequest(request: CCancelRequest): void {
    // A cancel of a C-FIND comes too late here (its answers are sent at once); one of a C-MOVE or C-GET stops it between two files.
    const retrieve = this.retrieves.get(request.getMessageIdBeingRespondedTo());
    if (retrieve) retrieve.cancelled = true;
  }

  override cMoveRequest(request: CMoveRequest, callback: (responses: InstanceType<typeof CMoveResponse>[]) => void): void {
    moveRequest(this, request, callback);
  }

  override cGetRequest(request: CGetRequest, callback: (responses: InstanceType<typeof CGetResponse>[]) => void): void {
    getRequest(this, request, callback);
  }

  override nCreateRequest(request: NCreateRequest, callback: (response: InstanceType<typeof NCreateResponse>) => void): void {
    mppsRequest(this, 'create', request, callback, NCreateResponse);
  }

  override nSetRequest(request: NSetRequest, callback: (response: InstanceType<typeof NSetResponse>) => void): void {
    mppsRequest(this, 'set', request, callback, NSetResponse);
  }
}
