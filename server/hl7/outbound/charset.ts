import iconv from 'iconv-lite';
import type { Hl7Charset } from '../../../contract/hl7Outbound';

/** The bytes on the wire follow MSH-18: UTF-8, or GB18030 for a HIS that still speaks it. */
export function encodeHl7(text: string, charset: Hl7Charset): Buffer {
  return charset === 'GB 18030-2000' ? iconv.encode(text, 'gb18030') : Buffer.from(text, 'utf8');
}

export function decodeHl7(bytes: Buffer, charset: Hl7Charset): string {
  return charset === 'GB 18030-2000' ? iconv.decode(bytes, 'gb18030') : bytes.toString('utf8');
}
