import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { ApiError } from '../http/errors';

/**
 * multipart/related (RFC 2387) both ways for DICOMweb: the answers of WADO-RS are written part by part as a stream
 * (a stored file is piped, never read whole), and the bodies of STOW-RS are split here. @fastify/multipart (busboy)
 * reads multipart/form-data only, so this is a small parser of our own over the body Fastify has already limited in
 * size (STOW_MAX_BYTES): boundary from the Content-Type, each part's headers, its bytes (a view into the body, no copy).
 */

export interface Part {
  headers: Record<string, string>;
  contentType: string;
  body: Uint8Array;
}

export interface MediaType {
  type: string;
  params: Record<string, string>;
}

/** One media type with its parameters (names lower case, quotes removed). */
export function parseMediaType(text: string): MediaType {
  const [head = '', ...rest] = splitOutsideQuotes(text, ';');
  const params: Record<string, string> = {};
  for (const p of rest) {
    const at = p.indexOf('=');
    if (at < 0) continue;
    const name = p.slice(0, at).trim().toLowerCase();
    let value = p.slice(at + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    params[name] = value;
  }
  return { type: head.trim().toLowerCase(), params };
}

/** An Accept header's media ranges, in the order given (q=0 left out). */
export function acceptList(header: string | undefined): MediaType[] {
  if (!header || !header.trim()) return [{ type: '*/*', params: {} }];
  return splitOutsideQuotes(header, ',').map(parseMediaType).filter((m) => m.type && m.params.q !== '0');
}

function splitOutsideQuotes(text: string, sep: string): string[] {
  const out: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') quoted = !quoted;
    else if (text[i] === sep && !quoted) { out.push(text.slice(start, i)); start = i + 1; }
  }
  out.push(text.slice(start));
  return out;
}

const BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=? ]{1,70}$/;

/** The parts of a multipart/related body; a body that is not well formed is a ParamsError. */
export function parseMultipart(body: Uint8Array, contentType: string): Part[] {
  const { type, params } = parseMediaType(contentType);
  if (type !== 'multipart/related') throw new ApiError('ParamsError', 'Expected multipart/related', { fields: ['content-type'] });
  const boundary = params.boundary;
  if (!boundary || !BOUNDARY.test(boundary)) throw new ApiError('ParamsError', 'The multipart body has no valid boundary', { fields: ['content-type'] });
  const buf = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const dash = Buffer.from(`--${boundary}`);
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const broken = (why: string) => new ApiError('ParamsError', `The multipart body is malformed: ${why}`);
  // The first delimiter may open the body or follow a preamble.
  let at = buf.subarray(0, dash.length).equals(dash) ? 0 : buf.indexOf(delimiter);
  if (at < 0) throw broken('no boundary');
  at += at === 0 && buf.subarray(0, dash.length).equals(dash) ? dash.length : delimiter.length;
  const parts: Part[] = [];
  for (;;) {
    if (buf[at] === 0x2d && buf[at + 1] === 0x2d) return parts; // the closing delimiter
    // Transport padding, then the line break that ends the delimiter line.
    while (buf[at] === 0x20 || buf[at] === 0x09) at++;
    if (buf[at] !== 0x0d || buf[at + 1] !== 0x0a) throw broken('a delimiter line does not end');
    at += 2;
    const headerEnd = buf.indexOf('\r\n\r\n', at - 2);
    if (headerEnd < 0) throw broken('part headers do not end');
    const headers: Record<string, string> = {};
    if (headerEnd > at - 2) {
      const lines = buf.subarray(at, headerEnd).toString('latin1').split('\r\n');
      if (lines.length > 50) throw broken('too many part headers');
      for (const line of lines) {
        const colon = line.indexOf(':');
        if (colon <= 0) throw broken('a part header has no name');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
    }
    const start = headerEnd + 4;
    const end = buf.indexOf(delimiter, start);
    if (end < 0) throw broken('a part is cut off');
    parts.push({ headers, contentType: headers['content-type'] ?? 'text/plain', body: buf.subarray(start, end) });
    if (parts.length > 10_000) throw broken('too many parts');
    at = end + delimiter.length;
  }
}

/** A part of an answer: its Content-Type and either bytes or a stream to pipe. */
export interface OutPart {
  contentType: string;
  location?: string;
  body: () => Promise<Uint8Array | AsyncIterable<Uint8Array>>;
}

export function newBoundary(): string {
  return `dicomweb-${randomBytes(16).toString('hex')}`;
}

/** The parts as one multipart/related stream; each part's body is opened only when its turn comes. */
export function multipartStream(boundary: string, parts: Iterable<OutPart> | AsyncIterable<OutPart>): Readable {
  async function* chunks() {
    for await (const part of parts) {
      const head = [`--${boundary}`, `Content-Type: ${part.contentType}`];
      if (part.location) head.push(`Content-Location: ${part.location}`);
      yield Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1');
      const body = await part.body();
      if (body instanceof Uint8Array) yield body;
      else for await (const chunk of body) yield chunk;
      yield Buffer.from('\r\n');
    }
    yield Buffer.from(`--${boundary}--\r\n`);
  }
  return Readable.from(chunks(), { objectMode: false });
}
