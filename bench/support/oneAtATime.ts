/**
 * One request at a time over one keep-alive connection, in a process of its own (the bench's server keeps its event
 * loop to itself), for `seconds` after a short warm-up; prints the round trips' mean and percentiles in milliseconds as
 * JSON. bench/exams.ts runs it beside autocannon, whose percentiles are whole milliseconds: issue 18's goal for one
 * request at a time is a p95 of 3 ms, which those cannot tell from 2.5 or 3.4. Like autocannon, the request is written
 * once as bytes and sent as is, and the answer is read only as far as its length: Node's http client spent ~0.5 ms of
 * its own per request here, which the round trip would count as the server's.
 *
 * `node --import tsx bench/support/oneAtATime.ts <url> <seconds>`; the bearer token in ONE_TOKEN, the JSON body on stdin.
 */
import { connect } from 'node:net';
import { percentile } from './stats';

const [address, seconds] = process.argv.slice(2);
const url = new URL(address!);
const token = process.env.ONE_TOKEN ?? '';
const body = await new Promise<string>((resolve) => {
  let text = '';
  process.stdin.on('data', (d: Buffer) => { text += d.toString(); }).on('end', () => resolve(text));
});
const message = Buffer.from(`POST ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\ncontent-type: application/json\r\n` +
  `authorization: Bearer ${token}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: keep-alive\r\n\r\n${body}`);
const socket = connect(Number(url.port), url.hostname);
socket.setNoDelay(true);
await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));

let pending: { started: bigint; resolve: (ms: number) => void; reject: (err: Error) => void } | null = null;
let received: Buffer = Buffer.alloc(0);
socket.on('data', (chunk: Buffer) => {
  received = received.length ? Buffer.concat([received, chunk]) : chunk;
  const headEnd = received.indexOf('\r\n\r\n');
  if (headEnd < 0 || !pending) return;
  const head = received.subarray(0, headEnd).toString('latin1');
  const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? NaN);
  if (!Number.isFinite(length)) { pending.reject(new Error('an answer without content-length')); return; }
  if (received.length < headEnd + 4 + length) return;
  const done = pending;
  pending = null;
  received = received.subarray(headEnd + 4 + length);
  if (!head.startsWith('HTTP/1.1 200')) done.reject(new Error(head.split('\r\n')[0]));
  else done.resolve(Number(process.hrtime.bigint() - done.started) / 1e6);
});
socket.on('error', (err) => pending?.reject(err));

function once(): Promise<number> {
  return new Promise((resolve, reject) => {
    pending = { started: process.hrtime.bigint(), resolve, reject };
    socket.write(message);
  });
}

for (let i = 0; i < 200; i++) await once();
const times: number[] = [];
const until = Date.now() + Number(seconds) * 1000;
while (Date.now() < until) times.push(await once());
socket.destroy();
times.sort((a, b) => a - b);
const mean = times.reduce((a, b) => a + b, 0) / times.length;
console.log(JSON.stringify({ requests: times.length, mean, p50: percentile(times, 50), p95: percentile(times, 95), p99: percentile(times, 99) }));
