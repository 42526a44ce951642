/**
 * Text decoding by Specific Character Set (0008,0005), PS3.5 §6.1. Uses the platform's TextDecoder
 * (browsers and Node with ICU know every encoding used here), so the same code runs in the upload
 * wizard and on the server.
 */

/** Single-byte and multi-byte repertoires without code extensions → WHATWG encoding labels. */
const PLAIN: Record<string, string> = {
  '': 'windows-1252',
  ISO_IR_6: 'windows-1252',
  ISO_IR_100: 'windows-1252',
  ISO_IR_101: 'iso-8859-2',
  ISO_IR_109: 'iso-8859-3',
  ISO_IR_110: 'iso-8859-4',
  ISO_IR_144: 'iso-8859-5',
  ISO_IR_127: 'iso-8859-6',
  ISO_IR_126: 'iso-8859-7',
  ISO_IR_138: 'iso-8859-8',
  ISO_IR_148: 'windows-1254',
  ISO_IR_203: 'iso-8859-15',
  ISO_IR_166: 'windows-874',
  ISO_IR_13: 'shift_jis',
  ISO_IR_192: 'utf-8',
  GB18030: 'gb18030',
  GBK: 'gbk',
};

/** Code-extension terms (ISO 2022 ...) → the encoding of their G0/G1 set. */
const EXTENDED: Record<string, string> = {
  ISO_2022_IR_6: 'windows-1252',
  ISO_2022_IR_100: 'windows-1252',
  ISO_2022_IR_101: 'iso-8859-2',
  ISO_2022_IR_109: 'iso-8859-3',
  ISO_2022_IR_110: 'iso-8859-4',
  ISO_2022_IR_144: 'iso-8859-5',
  ISO_2022_IR_127: 'iso-8859-6',
  ISO_2022_IR_126: 'iso-8859-7',
  ISO_2022_IR_138: 'iso-8859-8',
  ISO_2022_IR_148: 'windows-1254',
  ISO_2022_IR_203: 'iso-8859-15',
  ISO_2022_IR_166: 'windows-874',
  ISO_2022_IR_13: 'shift_jis',
  ISO_2022_IR_87: 'iso-2022-jp',
  ISO_2022_IR_159: 'euc-jp',
  ISO_2022_IR_149: 'euc-kr',
  ISO_2022_IR_58: 'gbk',
};

/** Escape sequences (after ESC) that switch the active set inside a value, with what the bytes after them are. */
const ESCAPES: [seq: string, encoding: string][] = [
  ['$B', 'iso-2022-jp'], ['$@', 'iso-2022-jp'], ['$(D', 'jis0212'],
  ['$)C', 'euc-kr'], ['$)A', 'gbk'],
  ['(B', 'windows-1252'], ['(J', 'windows-1252'], [')I', 'shift_jis'],
  ['-A', 'windows-1252'], ['-B', 'iso-8859-2'], ['-C', 'iso-8859-3'], ['-D', 'iso-8859-4'],
  ['-F', 'iso-8859-7'], ['-G', 'iso-8859-6'], ['-H', 'iso-8859-8'], ['-L', 'iso-8859-5'],
  ['-M', 'windows-1254'], ['-T', 'windows-874'], ['-b', 'iso-8859-15'],
];

const decoders = new Map<string, TextDecoder>();
function decoder(label: string): TextDecoder {
  let d = decoders.get(label);
  if (!d) {
    try { d = new TextDecoder(label); } catch { d = new TextDecoder('windows-1252'); }
    decoders.set(label, d);
  }
  return d;
}

const term = (value: string) => value.trim().toUpperCase().replace(/[\s_]+/g, '_');

export interface Charset {
  /** The terms as written in the file, e.g. ['ISO 2022 IR 6', 'ISO 2022 IR 87']. */
  terms: string[];
  /** Decoder label for bytes before any escape sequence. */
  initial: string;
  /** True when the value may switch sets with ESC sequences. */
  extended: boolean;
  /** Terms this code did not recognise (decoded as Latin-1 instead). */
  unknown: string[];
}

export function charsetOf(specificCharacterSet: string | null | undefined): Charset {
  const terms = (specificCharacterSet ?? '').split('\\').map((t) => t.trim());
  const unknown: string[] = [];
  const first = term(terms[0] ?? '');
  let initial = PLAIN[first] ?? EXTENDED[first];
  if (!initial) { unknown.push(terms[0]!); initial = 'windows-1252'; }
  for (const t of terms.slice(1)) if (t && !EXTENDED[term(t)]) unknown.push(t);
  const extended = terms.some((t) => term(t).startsWith('ISO_2022'));
  return { terms: terms.filter(Boolean), initial, extended, unknown };
}

/** Decodes a text value's bytes (PN, LO, SH, ST, LT, UT, UC) and drops the trailing padding. */
export function decodeText(bytes: Uint8Array, charset: Charset): string {
  const text = charset.extended && bytes.includes(0x1b) ? decodeExtended(bytes, charset.initial) : decodeSegment(bytes, charset.initial);
  return text.replace(/[\0\s]+$/u, '');
}

function decodeSegment(bytes: Uint8Array, label: string): string {
  if (bytes.length === 0) return '';
  if (label === 'iso-2022-jp') {
    // The JIS X 0208 bytes of a segment are 7-bit pairs: give the decoder its own escape around them.
    return decoder('iso-2022-jp').decode(concat([0x1b, 0x24, 0x42], bytes, [0x1b, 0x28, 0x42]));
  }
  if (label === 'jis0212') {
    // JIS X 0212 as EUC-JP: 0x8F then each byte with its high bit set.
    const out: number[] = [];
    for (let i = 0; i + 1 < bytes.length; i += 2) out.push(0x8f, bytes[i]! | 0x80, bytes[i + 1]! | 0x80);
    return decoder('euc-jp').decode(new Uint8Array(out));
  }
  return decoder(label).decode(bytes);
}

function decodeExtended(bytes: Uint8Array, initial: string): string {
  let out = '';
  let label = initial;
  let start = 0;
  let i = 0;
  while (i < bytes.length) {
    if (bytes[i] !== 0x1b) { i++; continue; }
    const match = ESCAPES.find(([seq]) => seq.split('').every((c, k) => bytes[i + 1 + k] === c.charCodeAt(0)));
    if (!match) { i++; continue; }
    out += decodeSegment(bytes.subarray(start, i), label);
    label = match[1];
    i += 1 + match[0].length;
    start = i;
  }
  return out + decodeSegment(bytes.subarray(start), label);
}

function concat(...parts: ArrayLike<number>[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}
