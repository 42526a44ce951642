import v2 from '@redoxengine/redox-hl7-v2';

/**
 * The HL7 v2 library, behind one small door: messages are built and read as the library's JSON (segment groups by
 * name, fields by number, components by number), and the library does the delimiters and the escaping (\F\ \S\ \R\
 * \E\ \T\), checked against its HL7 v2 message structures. Nothing here splits or joins segments by hand.
 */
export type V2Json = Record<string, unknown>;

const generator = new v2.Generator();
const parser = new v2.Parser();

/** The message as text, segments ended by CR (trailing empty fields trimmed: they carry nothing). */
export function writeV2(json: V2Json): string {
  return generator.write(json).split('\r').filter((s) => s.length > 0).map((s) => s.replace(/\|+$/, '')).join('\r') + '\r';
}

export function readV2(text: string): V2Json {
  return parser.parse(text);
}
