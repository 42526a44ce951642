import type { EchoFailure, EchoResult } from '../../contract/dicomAdmin';
import { dimse } from './dimse';

const { Client } = dimse;
const { CEchoRequest } = dimse.requests;
const { Status } = dimse.constants;

/**
 * A C-ECHO SCU (dcmjs-dimse's Client) to a device: connect, associate as `callingAe` calling `calledAe`, echo,
 * release. Never throws: the answer says ok with the round trip, or why not. `timeoutMs` bounds the whole exchange.
 */
export function echo(target: { host: string; port: number; calledAe: string; callingAe: string }, timeoutMs = 5000): Promise<EchoResult> {
  const started = performance.now();
  const ms = () => Math.max(0, Math.round(performance.now() - started));
  return new Promise<EchoResult>((resolve) => {
    let done = false;
    const finish = (failure: EchoFailure | null, detail: string | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ ok: failure === null, ms: ms(), failure, detail });
    };
    const timer = setTimeout(() => finish('timeout', `no answer in ${timeoutMs} ms`), timeoutMs);
    const client = new Client();
    const request = new CEchoRequest();
    request.on('response', (response: { getStatus(): number }) => {
      const status = response.getStatus();
      if (status === Status.Success) finish(null, null);
      else finish('status', `0x${status.toString(16).padStart(4, '0').toUpperCase()}`);
    });
    client.addRequest(request);
    client.on('associationRejected', (reject: { result?: number; source?: number; reason?: number }) =>
      finish('rejected', `result ${reject?.result ?? '?'}, source ${reject?.source ?? '?'}, reason ${reject?.reason ?? '?'}`));
    client.on('networkError', (err: NodeJS.ErrnoException) => {
      // The library wraps the socket's error in its own ('Connection error: connect ECONNREFUSED …'): the errno is in the words.
      const code = err?.code ?? /\b(E[A-Z]{3,})\b/.exec(err?.message ?? '')?.[1] ?? '';
      if (code === 'ECONNREFUSED') finish('refused', code);
      else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH') finish('unreachable', code);
      else if (code === 'ETIMEDOUT') finish('timeout', code);
      else finish('error', code || err?.message?.replace(/^\s*->\s*/, '') || 'network error');
    });
    client.on('closed', () => finish('aborted', 'the peer closed the connection'));
    try {
      client.send(target.host, target.port, target.callingAe, target.calledAe, {
        connectTimeout: timeoutMs, associationTimeout: timeoutMs, pduTimeout: timeoutMs,
      });
    } catch (err) {
      finish('error', (err as Error).message);
    }
  });
}
