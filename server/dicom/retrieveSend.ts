import { dimse } from './dimse';

/** What a C-MOVE or C-GET sends and answers (./listener.ts): stored data sets as received, the sub-operations, the final response. */
type Dataset = InstanceType<typeof dimse.Dataset>;
const { Dataset } = dimse;
const { Status } = dimse.constants;

/**
 * A stored file's data set for a C-STORE sub-operation: parsed (the library reads its SOP class and instance, and
 * transcodes it when the peer accepted another syntax), but sent as the bytes that were received when the syntax is the same.
 */
export class StoredDataset extends Dataset {
  constructor(private readonly raw: Buffer, private readonly syntax: string) { super(raw, syntax); }
  override getDenaturalizedDataset(): Buffer { return this.raw; }
  override getTransferSyntaxUid(): string { return this.syntax; }
}

const NATIVE_SYNTAXES = ['1.2.840.10008.1.2.1', '1.2.840.10008.1.2'];

/** C-MOVE's sub-operations: one association from us (our AE title) to the destination, a C-STORE per data set. */
export function sendTo(destination: { aeTitle: string; host: string; port: number }, aeTitle: string, datasets: Dataset[], originator: string):
  Promise<{ completed: number; failed: number; error: string | null }> {
  if (datasets.length === 0) return Promise.resolve({ completed: 0, failed: 0, error: null });
  return new Promise((resolve) => {
    const client = new dimse.Client();
    let completed = 0;
    let error: string | null = null;
    for (const dataset of datasets) {
      const request = new dimse.requests.CStoreRequest(dataset);
      // A native file may go in the other native syntax if the destination takes only that one.
      if (NATIVE_SYNTAXES.includes(dataset.getTransferSyntaxUid())) request.setAdditionalTransferSyntaxes(NATIVE_SYNTAXES.filter((t) => t !== dataset.getTransferSyntaxUid()));
      const command = request.getCommandDataset() as unknown as { setElement(k: string, v: unknown): void };
      command.setElement('MoveOriginatorApplicationEntityTitle', originator);
      request.on('response', (r: { getStatus(): number }) => {
        const status = r.getStatus();
        if (status === 0 || (status & 0xf000) === 0xb000) completed++;
      });
      client.addRequest(request);
    }
    let settled = false;
    const finish = () => { if (!settled) { settled = true; resolve({ completed, failed: datasets.length - completed, error }); } };
    client.on('associationRejected', (r: { reason: number }) => { error = `association rejected (${r.reason})`; finish(); });
    client.on('networkError', (err: Error) => { error = err.message; finish(); });
    client.on('closed', finish);
    client.send(destination.host, destination.port, aeTitle, destination.aeTitle, { connectTimeout: 10_000, associationTimeout: 30_000, pduTimeout: 60_000 });
  });
}

/** A retrieve's sub-operations as its final response counts them. */
export interface RetrieveCounts { completed: number; failed: number }

/** The final status of a C-MOVE or C-GET (PS3.4 C.4.2.1.5): all sent 0000; some failed B000; none sent (and some asked) A702. */
export function retrieveStatus(counts: RetrieveCounts): number {
  return counts.failed === 0 ? Status.Success : counts.completed > 0 ? 0xb000 : 0xa702;
}

/** The final response of a C-MOVE or C-GET: its status, the counts, nothing pending, and a comment cut to the VR's 64. */
export function retrieveAnswer<R extends {
  setStatus(s: number): void; setCompleted(n: number): void; setFailures(n: number): void; setWarnings(n: number): void;
  setRemaining(n: number): void; setErrorComment(c: string): void;
}>(response: R, status: number, counts: RetrieveCounts, comment?: string): R {
  response.setStatus(status);
  response.setCompleted(counts.completed);
  response.setFailures(counts.failed);
  response.setWarnings(0);
  response.setRemaining(0);
  if (comment) response.setErrorComment(comment.slice(0, 64));
  return response;
}
