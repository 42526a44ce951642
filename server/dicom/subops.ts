import type { Deps } from '../deps';
import { dimse } from './dimse';
import { dataSetOf, type StoredFile } from './retrieve';

type Dataset = InstanceType<typeof dimse.Dataset>;
type CStoreRequest = InstanceType<typeof dimse.requests.CStoreRequest>;
const { Dataset } = dimse;

/**
 * A C-MOVE's or C-GET's sub-operations (PS3.4 C.4.2.3, C.4.3.3): one C-STORE per stored file, the files read from
 * storage one at a time as each is sent (a study is never held in memory whole), a Pending response after each with
 * the Remaining/Completed/Failed/Warning counts, and a C-CANCEL honoured between two sub-operations (the one under way
 * finishes; the final response is then Cancel FE00 with the counts and what remained).
 */
export interface RetrieveCounts { remaining: number; completed: number; failed: number; warnings: number }

/** What one sub-operation came to: the peer's C-STORE status sorted as PS3.4 counts it. */
export type SubOutcome = 'completed' | 'warning' | 'failed';

export const outcomeOf = (status: number | null): SubOutcome =>
  status === 0 ? 'completed' : status !== null && ((status & 0xf000) === 0xb000 || status === 0x0107 || status === 0x0116) ? 'warning' : 'failed';

export const CANCEL_STATUS = 0xfe00;

/**
 * The final status (PS3.4 C.4.2.1.5, C.4.3.1.4): all completed 0000; some failed or warned B000; none completed
 * (and some asked) A702; cancelled FE00.
 */
export function retrieveStatus(counts: RetrieveCounts, cancelled = false): number {
  if (cancelled) return CANCEL_STATUS;
  if (counts.failed === 0 && counts.warnings === 0) return 0;
  return counts.completed + counts.warnings > 0 ? 0xb000 : 0xa702;
}

/**
 * A stored file's data set for a C-STORE sub-operation: parsed (the library reads its SOP class and instance, and
 * transcodes it when the peer accepted another syntax), but sent as the bytes that were received when the syntax is the same.
 */
class StoredDataset extends Dataset {
  constructor(private readonly raw: Buffer, private readonly syntax: string) { super(raw, syntax); }
  override getDenaturalizedDataset(): Buffer { return this.raw; }
  override getTransferSyntaxUid(): string { return this.syntax; }
}

/** One stored file read from storage, as the data set to send. */
export async function readStored(deps: Pick<Deps, 'storage'>, file: StoredFile): Promise<Dataset> {
  const chunks: Buffer[] = [];
  for await (const chunk of await deps.storage.get(file.storageKey)) chunks.push(chunk as Buffer);
  return new StoredDataset(dataSetOf(Buffer.concat(chunks)), file.transferSyntaxUid);
}

export interface RunOptions {
  deps: Pick<Deps, 'storage'>;
  files: StoredFile[];
  /** Sends one data set; the peer's C-STORE status, or null when it never answered. */
  store: (dataset: Dataset) => Promise<number | null>;
  /** A Pending response with these counts (after every sub-operation but the last). */
  pending: (counts: RetrieveCounts) => void;
  /** True once the SCU sent C-CANCEL for this retrieve. */
  cancelled: () => boolean;
  /** A file that could not be read or sent: said once in the association's record. */
  error: (message: string) => void;
}

/** The sub-operations one after the other; the counts and whether a C-CANCEL stopped them. */
export async function runSubOperations(o: RunOptions): Promise<{ counts: RetrieveCounts; cancelled: boolean }> {
  const counts: RetrieveCounts = { remaining: o.files.length, completed: 0, failed: 0, warnings: 0 };
  for (const file of o.files) {
    if (o.cancelled()) return { counts, cancelled: true };
    let outcome: SubOutcome;
    try {
      outcome = outcomeOf(await o.store(await readStored(o.deps, file)));
      if (outcome === 'failed') o.error(`${file.sopInstanceUid}: not stored by the peer`);
    } catch (err) {
      outcome = 'failed';
      o.error(`${file.sopInstanceUid}: ${(err as Error).message}`);
    }
    counts.remaining--;
    if (outcome === 'completed') counts.completed++; else if (outcome === 'warning') counts.warnings++; else counts.failed++;
    if (counts.remaining > 0) o.pending({ ...counts });
  }
  return { counts, cancelled: false };
}

const NATIVE_SYNTAXES = ['1.2.840.10008.1.2.1', '1.2.840.10008.1.2'];

/** The internals of dcmjs-dimse's Client this uses: its network (a public field, untyped) and the queue it drains. */
interface ClientNetwork {
  sendRequests(r: CStoreRequest): void;
  sendAssociationReleaseRequest(): void;
  removeAllListeners(event: string): void;
}

/**
 * C-MOVE's association to the destination (from our AE title), opened at the first file with a presentation context
 * for every SOP class and transfer syntax of the files to come (known from the database, before any is read), then
 * fed one C-STORE at a time. dcmjs-dimse's Client sends the requests it holds when the association opens and
 * releases it when they are done; here its "done" is unhooked so that the next file, read only now, can follow.
 */
export class MoveAssociation {
  private client: InstanceType<typeof dimse.Client> | null = null;
  private network: ClientNetwork | null = null;
  private current: ((status: number | null) => void) | null = null;
  private closed: Promise<void> | null = null;
  /** Why the association failed (rejected, network), once; every later sub-operation fails at once. */
  error: string | null = null;

  constructor(private readonly destination: { aeTitle: string; host: string; port: number }, private readonly aeTitle: string,
    private readonly originator: string, private readonly files: StoredFile[]) {}

  store(dataset: Dataset): Promise<number | null> {
    if (this.error) return Promise.resolve(null);
    const request = new dimse.requests.CStoreRequest(dataset);
    // A native file may go in the other native syntax if the destination takes only that one.
    if (NATIVE_SYNTAXES.includes(dataset.getTransferSyntaxUid())) request.setAdditionalTransferSyntaxes(NATIVE_SYNTAXES.filter((t) => t !== dataset.getTransferSyntaxUid()));
    (request.getCommandDataset() as unknown as { setElement(k: string, v: unknown): void }).setElement('MoveOriginatorApplicationEntityTitle', this.originator);
    return new Promise((resolve) => {
      let status: number | null = null;
      this.current = resolve;
      request.on('response', (r: { getStatus(): number }) => { status = r.getStatus(); });
      request.on('done', () => { this.current = null; resolve(status); });
      if (this.network) this.network.sendRequests(request);
      else this.open(request);
    });
  }

  private open(first: CStoreRequest) {
    const client = new dimse.Client();
    client.addRequest(first);
    for (const [sop, syntaxes] of contextsOf(this.files)) {
      for (const ts of syntaxes) {
        const native = NATIVE_SYNTAXES.includes(ts);
        const context = new dimse.association.PresentationContext(0, sop, ts);
        if (native) for (const other of NATIVE_SYNTAXES) if (other !== ts) context.addTransferSyntaxUid(other);
        // A compressed syntax gets a context of its own, so that the destination cannot pick a native one for those files.
        client.addAdditionalPresentationContext(context, !native);
      }
    }
    const fail = (why: string) => {
      this.error ??= why;
      const waiting = this.current;
      this.current = null;
      waiting?.(null);
    };
    let done: () => void = () => undefined;
    this.closed = new Promise((resolve) => { done = resolve; });
    client.on('associationRejected', (r: { reason: number }) => fail(`association rejected (${r.reason})`));
    client.on('networkError', (err: Error) => fail(err.message));
    client.on('closed', () => { fail('association closed'); done(); });
    client.send(this.destination.host, this.destination.port, this.aeTitle, this.destination.aeTitle, { connectTimeout: 10_000, associationTimeout: 30_000, pduTimeout: 60_000 });
    this.client = client;
    this.network = (client as unknown as { network: ClientNetwork }).network;
    this.network.removeAllListeners('done');
  }

  /** Releases the association (if it opened) and waits until its connection is closed. */
  async close(): Promise<void> {
    if (!this.client || !this.closed) return;
    if (!this.error) this.network?.sendAssociationReleaseRequest();
    await this.closed;
  }
}

/** The presentation contexts the files need: per SOP class, the transfer syntaxes they are stored in. */
function contextsOf(files: StoredFile[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const f of files) {
    if (!f.sopClassUid) continue;
    const set = out.get(f.sopClassUid) ?? new Set<string>();
    set.add(f.transferSyntaxUid);
    out.set(f.sopClassUid, set);
  }
  return out;
}

export type RetrieveResponse = {
  setStatus(s: number): void; setCompleted(n: number): void; setFailures(n: number): void; setWarnings(n: number): void;
  setRemaining(n: number): void; setErrorComment(c: string): void;
};

/** A response of a C-MOVE or C-GET (Pending or final): its status, the counts, and a comment cut to the VR's 64. */
export function retrieveAnswer<R extends RetrieveResponse>(response: R, status: number, counts: RetrieveCounts, comment?: string): R {
  response.setStatus(status);
  response.setCompleted(counts.completed);
  response.setFailures(counts.failed);
  response.setWarnings(counts.warnings);
  response.setRemaining(counts.remaining);
  if (comment) response.setErrorComment(comment.slice(0, 64));
  return response;
}
