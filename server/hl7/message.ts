import { Hl7Context, Hl7Field, Hl7Message, Hl7Segment } from '@medplum/core';
import iconv from 'iconv-lite';

/**
 * The one place HL7 v2 text is parsed and built (issue 36), shared by the inbound listener (orders, ADT) and the
 * outbound results (ORU^R01). A thin wrapper of @medplum/core's Hl7Message (docs/decisions.md "HL7 v2 library"):
 * the library splits segments, fields, repetitions, components and subcomponents by the message's own MSH-1/MSH-2
 * delimiters and builds ACKs; it leaves escape sequences as they came, so reading unescapes (\F\ \S\ \T\ \R\ \E\,
 * plus \X..\ hex and \.br\ as a line break) and building escapes, here, with the message's delimiters.
 * Bytes ↔ text follow MSH-18 (UTF-8, GB18030, Latin-1 …) through iconv-lite.
 */
export { Hl7Message, Hl7Segment, Hl7Field, Hl7Context };

/** A value to build into a field: a string, components (string[]), or repetitions of components (string[][]). */
export type FieldValue = string | null | undefined | readonly string[] | readonly (readonly string[])[];

/** MSH-18 character set names (HL7 table 0211) → iconv-lite encodings. Absent = ASCII, read as UTF-8 (a superset). */
const CHARSETS: Record<string, string> = {
  'ASCII': 'utf8',
  'UNICODE UTF-8': 'utf8',
  'UTF-8': 'utf8',
  'UNICODE': 'utf8',
  'GB 18030-2000': 'gb18030',
  'GB18030': 'gb18030',
  'GB 2312': 'gb2312',
  '8859/1': 'latin1',
  '8859/2': 'iso-8859-2',
  '8859/5': 'iso-8859-5',
  '8859/15': 'iso-8859-15',
  'ISO IR87': 'shift_jis',
  'BIG-5': 'big5',
  'BIG5': 'big5',
};

/** The iconv-lite encoding for an MSH-18 value, or null when we do not know the name (the caller answers AR). */
export function encodingOf(msh18: string | undefined | null): string | null {
  const name = (msh18 ?? '').split('~')[0]!.trim().toUpperCase();
  if (!name) return 'utf8';
  const enc = CHARSETS[name];
  return enc && iconv.encodingExists(enc) ? enc : null;
}

/**
 * MSH-18 read from the raw bytes. MSH is ASCII in every character set HL7 allows, so the header is read as Latin-1
 * (one byte one char) before we know how to decode the rest.
 */
export function charsetOfBytes(bytes: Uint8Array): string {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 4096)).toString('latin1');
  const msh = head.split(/\r\n|\r|\n/)[0] ?? '';
  if (!msh.startsWith('MSH') || msh.length < 8) return '';
  const fs = msh[3]!;
  return (msh.split(fs)[17] ?? '').trim();
}

/** Decodes a message's bytes by its MSH-18; null when the character set is unknown. */
export function decodeMessage(bytes: Uint8Array): { text: string; charset: string } | null {
  const charset = charsetOfBytes(bytes);
  const enc = encodingOf(charset);
  if (!enc) return null;
  return { text: iconv.decode(Buffer.from(bytes), enc), charset };
}

/** Encodes message text in the character set its MSH-18 names (UTF-8 when absent or unknown). */
export function encodeMessage(text: string, charset?: string | null): Buffer {
  return iconv.encode(text, encodingOf(charset) ?? 'utf8');
}

/** Parses HL7 v2 text (segments split by CR, LF or CRLF); throws when it does not start with MSH. */
export function parseMessage(text: string): Hl7Message {
  const normalized = text.replace(/\r\n|\n/g, '\r').replace(/\r+$/, '');
  if (!normalized.startsWith('MSH') || normalized.length < 8) throw new Error('not an HL7 v2 message: no MSH segment');
  return Hl7Message.parse(normalized);
}

/** Unescapes one value by the message's delimiters (HL7 v2.5.1 2.7). */
export function unescapeValue(value: string, ctx: Hl7Context): string {
  const e = ctx.escapeCharacter;
  if (!e || !value.includes(e)) return value;
  const re = new RegExp(`${reEsc(e)}([^${reEsc(e)}]*)${reEsc(e)}`, 'g');
  return value.replace(re, (whole, seq: string) => {
    switch (seq) {
      case 'F': return ctx.fieldSeparator;
      case 'S': return ctx.componentSeparator;
      case 'T': return ctx.subcomponentSeparator;
      case 'R': return ctx.repetitionSeparator;
      case 'E': return e;
      case '.br': return '\n';
      default:
        if (/^X([0-9A-Fa-f]{2})+$/.test(seq)) return Buffer.from(seq.slice(1), 'hex').toString('utf8');
        // Highlighting (\H\ \N\) and character-set switches carry no text of their own.
        if (seq === 'H' || seq === 'N' || /^[CM][0-9A-Fa-f]+$/.test(seq)) return '';
        return whole;
    }
  });
}

/** Escapes one value for the message's delimiters, so a name like "A|B^C" survives the trip. */
export function escapeValue(value: string, ctx: Hl7Context = new Hl7Context()): string {
  const e = ctx.escapeCharacter;
  let out = '';
  for (const ch of value) {
    if (ch === e) out += `${e}E${e}`;
    else if (ch === ctx.fieldSeparator) out += `${e}F${e}`;
    else if (ch === ctx.componentSeparator) out += `${e}S${e}`;
    else if (ch === ctx.subcomponentSeparator) out += `${e}T${e}`;
    else if (ch === ctx.repetitionSeparator) out += `${e}R${e}`;
    else if (ch === '\r') continue;
    else if (ch === '\n') out += `${e}.br${e}`;
    else out += ch;
  }
  return out;
}

function reEsc(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
}

/**
 * One value read from a message, unescaped: segment name (first of that name, or the nth with `occurrence`), field,
 * component, subcomponent, repetition — all 1-based like "PID-5.1" (repetition 1 = the first).
 */
export function read(
  msg: Hl7Message, segment: string | Hl7Segment, field: number, component = 1, subcomponent = 1, repetition = 1,
): string {
  const seg = typeof segment === 'string' ? msg.getSegment(segment) : segment;
  if (!seg) return '';
  if (seg.name === 'MSH' && field <= 2) return seg.getField(field).toString();
  const f = seg.getField(field);
  if (!f) return '';
  const rep = f.components[repetition - 1];
  if (!rep) return '';
  const comp = rep[component - 1] ?? '';
  const sub = comp.split(msg.context.subcomponentSeparator)[subcomponent - 1] ?? '';
  return unescapeValue(sub, msg.context);
}

/** How many repetitions a field has (0 when empty). */
export function repetitions(seg: Hl7Segment | undefined, field: number): number {
  if (!seg) return 0;
  const f = seg.getField(field);
  if (!f || f.toString() === '') return 0;
  return f.components.length;
}

/** A segment from plain values: every value is escaped; arrays become components, arrays of arrays repetitions. */
export function buildSegment(name: string, fields: readonly FieldValue[], ctx: Hl7Context = new Hl7Context()): Hl7Segment {
  const out: string[] = [name];
  for (const v of fields) out.push(fieldText(v, ctx));
  return Hl7Segment.parse(out.join(ctx.fieldSeparator), ctx);
}

function fieldText(v: FieldValue, ctx: Hl7Context): string {
  if (v == null) return '';
  if (typeof v === 'string') return escapeValue(v, ctx);
  if (v.length > 0 && Array.isArray(v[0])) {
    return (v as readonly (readonly string[])[]).map((rep) => rep.map((c) => escapeValue(c, ctx)).join(ctx.componentSeparator)).join(ctx.repetitionSeparator);
  }
  return (v as readonly string[]).map((c) => escapeValue(c, ctx)).join(ctx.componentSeparator);
}

export interface HeaderOptions {
  sendingApplication: string;
  sendingFacility: string;
  receivingApplication: string;
  receivingFacility: string;
  /** e.g. ['ORU', 'R01', 'ORU_R01'] */
  messageType: readonly string[];
  controlId: string;
  /** MSH-11: P production, T training, D debugging. */
  processingId?: string;
  version?: string;
  /** MSH-18; UTF-8 unless told. */
  charset?: string;
  time?: Date;
}

/** An MSH segment with the standard delimiters. */
export function buildHeader(h: HeaderOptions): Hl7Segment {
  const ctx = new Hl7Context();
  const msh = [
    'MSH', ctx.getMsh2(), escapeValue(h.sendingApplication, ctx), escapeValue(h.sendingFacility, ctx),
    escapeValue(h.receivingApplication, ctx), escapeValue(h.receivingFacility, ctx), hl7Time(h.time ?? new Date()), '',
    fieldText(h.messageType, ctx), escapeValue(h.controlId, ctx), h.processingId ?? 'P', h.version ?? '2.5.1',
    '', '', '', '', '', h.charset ?? 'UNICODE UTF-8',
  ];
  return Hl7Segment.parse(msh.join(ctx.fieldSeparator), ctx);
}

/** A whole message from segments (the first the MSH); `toString()` gives CR-separated text. */
export function buildMessage(segments: Hl7Segment[]): Hl7Message {
  return new Hl7Message(segments);
}

/** HL7 TS (DTM) in UTC: YYYYMMDDHHMMSS+0000. */
export function hl7Time(d: Date): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}+0000`;
}

/** HL7 DT / TS → 'YYYY-MM-DD' (the date part only), or null when it is not a date. */
export function hl7Date(v: string): string | null {
  const m = /^(\d{4})(\d{2})(\d{2})/.exec(v.trim());
  if (!m) return null;
  const iso = `${m[1]}-${m[2]}-${m[3]}`;
  const d = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== iso ? null : iso;
}

export type AckCode = 'AA' | 'AE' | 'AR';

export interface AckError {
  /** ERR-3 (HL7 table 0357): 100 segment sequence, 101 required field missing, 102 data type, 103 table value not
   *  found, 200 unsupported message type, 201 unsupported event, 203 unsupported version, 204 unknown key,
   *  205 duplicate key, 207 application internal error. */
  hl7Code: string;
  /** ERR-8 user message: the catalogue code and its reason, e.g. "REGISTRY_TOO_MANY_EXAMS: at most 5 exams". */
  message: string;
  /** ERR-2 error location, e.g. "OBR^1^4". */
  location?: string;
}

/**
 * The acknowledgement for a message: MSA-1 code, MSA-2 its control id, and with an error an ERR segment
 * (ERR-3 HL7 error code, ERR-4 severity E, ERR-8 the user message). Original-mode ACK, answered by our side.
 */
export function buildAck(msg: Hl7Message, code: AckCode, err?: AckError, controlId?: string): Hl7Message {
  const ctx = msg.context;
  const errSegment = err
    ? buildSegment('ERR', ['', err.location ? err.location.split('^') : '', [err.hl7Code], 'E', '', '', '', err.message], ctx)
    : undefined;
  const ack = msg.buildAck({ ackCode: code, errSegment });
  if (controlId) ack.header.setField(10, controlId);
  // The ACK goes back in the character set the message came in (MSH-18 copied), so the peer can read ERR-8.
  const charset = msg.header.getField(18)?.toString() ?? '';
  if (charset) ack.header.setField(18, charset);
  // MSA-3 (text message) is withdrawn in 2.5.1 in favour of ERR; keep it short and plain for older peers.
  if (err) ack.getSegment('MSA')?.setField(3, escapeValue(err.message.slice(0, 80), ctx));
  return ack;
}

/** MSH-9 as "ORM^O01" (type^event) — trigger event uppercased, blanks kept empty. */
export function messageTypeOf(msg: Hl7Message): { type: string; event: string; label: string } {
  const type = read(msg, msg.header, 9, 1).toUpperCase();
  const event = read(msg, msg.header, 9, 2).toUpperCase();
  return { type, event, label: event ? `${type}^${event}` : type };
}

/** The ACK code and ERR text out of an acknowledgement (for the outbound side and for tests). */
export function ackOf(ack: Hl7Message): { code: string; controlId: string; errorCode: string; errorMessage: string } {
  return {
    code: read(ack, 'MSA', 1),
    controlId: read(ack, 'MSA', 2),
    errorCode: read(ack, 'ERR', 3),
    errorMessage: read(ack, 'ERR', 8),
  };
}
