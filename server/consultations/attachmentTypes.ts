import { Transform, type TransformCallback } from 'node:stream';
import { CONSULTATION_ATTACHMENT_EXTENSIONS, type ConsultationAttachmentExtension } from '../../contract/consultations';
import { ApiError } from '../http/errors';
import { assertImageWithinLimits } from '../http/imageLimits';

/**
 * What a consultation case may hold (areas §3 cases): scans and photos, PDFs, office documents, plain text, short
 * videos and DICOM files. A file is judged by its name's extension and, where the format has one, by the signature
 * in its first bytes, so a renamed executable is refused whatever it is called.
 */
interface AttachmentType {
  contentType: string;
  /** The first bytes' test; absent for formats without a signature (plain text: no NUL in the head instead). */
  signature: (head: Uint8Array) => boolean;
  /** An image: its header's width and height must be within every image upload's limits (server/http/imageLimits.ts). */
  image?: true;
}

const at = (head: Uint8Array, offset: number, ...bytes: number[]) => bytes.every((b, i) => head[offset + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

const png = (h: Uint8Array) => at(h, 0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
const jpeg = (h: Uint8Array) => at(h, 0, 0xff, 0xd8, 0xff);
const gif = (h: Uint8Array) => at(h, 0, ...ascii('GIF87a')) || at(h, 0, ...ascii('GIF89a'));
const webp = (h: Uint8Array) => at(h, 0, ...ascii('RIFF')) && at(h, 8, ...ascii('WEBP'));
const bmp = (h: Uint8Array) => at(h, 0, ...ascii('BM'));
const tiff = (h: Uint8Array) => at(h, 0, 0x49, 0x49, 0x2a, 0x00) || at(h, 0, 0x4d, 0x4d, 0x00, 0x2a);
const pdf = (h: Uint8Array) => at(h, 0, ...ascii('%PDF-'));
/** Word 97–2003, Excel, PowerPoint: OLE compound files. */
const ole = (h: Uint8Array) => at(h, 0, 0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1);
/** Office Open XML and OpenDocument: zip archives. */
const zip = (h: Uint8Array) => at(h, 0, 0x50, 0x4b, 0x03, 0x04);
const rtf = (h: Uint8Array) => at(h, 0, ...ascii('{\\rtf'));
/** ISO base media (mp4): a box whose type is 'ftyp' at offset 4. */
const mp4 = (h: Uint8Array) => at(h, 4, ...ascii('ftyp'));
/** Matroska / WebM: the EBML header. */
const webm = (h: Uint8Array) => at(h, 0, 0x1a, 0x45, 0xdf, 0xa3);
/** DICOM Part 10: a 128-byte preamble, then 'DICM'. */
const dicom = (h: Uint8Array) => at(h, 128, ...ascii('DICM'));
/** Text has no signature; a NUL in its head means it is some binary file named .txt. */
const text = (h: Uint8Array) => !h.includes(0);

const OOXML = 'application/vnd.openxmlformats-officedocument';
const ODF = 'application/vnd.oasis.opendocument';

/** Keyed by the contract's list, so the two cannot drift apart. */
export const ATTACHMENT_TYPES: Readonly<Record<ConsultationAttachmentExtension, AttachmentType>> = {
  png: { contentType: 'image/png', signature: png, image: true },
  jpg: { contentType: 'image/jpeg', signature: jpeg, image: true },
  jpeg: { contentType: 'image/jpeg', signature: jpeg, image: true },
  gif: { contentType: 'image/gif', signature: gif, image: true },
  webp: { contentType: 'image/webp', signature: webp, image: true },
  bmp: { contentType: 'image/bmp', signature: bmp, image: true },
  tif: { contentType: 'image/tiff', signature: tiff, image: true },
  tiff: { contentType: 'image/tiff', signature: tiff, image: true },
  pdf: { contentType: 'application/pdf', signature: pdf },
  doc: { contentType: 'application/msword', signature: ole },
  xls: { contentType: 'application/vnd.ms-excel', signature: ole },
  ppt: { contentType: 'application/vnd.ms-powerpoint', signature: ole },
  docx: { contentType: `${OOXML}.wordprocessingml.document`, signature: zip },
  xlsx: { contentType: `${OOXML}.spreadsheetml.sheet`, signature: zip },
  pptx: { contentType: `${OOXML}.presentationml.presentation`, signature: zip },
  odt: { contentType: `${ODF}.text`, signature: zip },
  ods: { contentType: `${ODF}.spreadsheet`, signature: zip },
  odp: { contentType: `${ODF}.presentation`, signature: zip },
  rtf: { contentType: 'application/rtf', signature: rtf },
  txt: { contentType: 'text/plain; charset=utf-8', signature: text },
  csv: { contentType: 'text/csv; charset=utf-8', signature: text },
  mp4: { contentType: 'video/mp4', signature: mp4 },
  webm: { contentType: 'video/webm', signature: webm },
  dcm: { contentType: 'application/dicom', signature: dicom },
};


/** How many first bytes the signatures need (DICOM's 'DICM' ends at 132; text's NUL test looks a little further). */
const HEAD_BYTES = 512;
/**
 * An image's head is held longer, until its size can be read: a JPEG's frame header comes after its metadata
 * (EXIF, ICC profile), which is seldom more than a few hundred KB. Within this, or the image is ImageBroken.
 */
const IMAGE_HEAD_BYTES = 1024 * 1024;

export const unsupported = () => new ApiError('UnsupportedFileType', undefined, { accepted: CONSULTATION_ATTACHMENT_EXTENSIONS });

/** The extension of a file name, lower case, if it is one a case may hold; anything else is UnsupportedFileType. */
export function attachmentTypeOf(filename: string): { extension: string; type: AttachmentType } {
  const dot = filename.lastIndexOf('.');
  const extension = dot < 0 ? '' : filename.slice(dot + 1).toLowerCase();
  const type = Object.hasOwn(ATTACHMENT_TYPES, extension) ? ATTACHMENT_TYPES[extension as ConsultationAttachmentExtension] : undefined;
  if (!type) throw unsupported();
  return { extension, type };
}

/**
 * Passes a file's bytes through once its head has passed the type's signature test; otherwise fails the stream with
 * UnsupportedFileType, so storage keeps nothing. An empty file has no signature and is refused too. An image's
 * width and height are read from its header (in the first IMAGE_HEAD_BYTES) and held to every image upload's limits
 * (ImageTooLarge; a size that cannot be read is ImageBroken), before a byte is stored.
 */
export function signatureCheck(type: AttachmentType): Transform {
  const held: Buffer[] = [];
  let heldBytes = 0;
  let checked = false;
  const check = (stream: Transform): Error | null => {
    checked = true;
    const head = Buffer.concat(held);
    held.length = 0;
    if (head.length === 0 || !type.signature(head.subarray(0, HEAD_BYTES))) return unsupported();
    if (type.image) {
      try {
        assertImageWithinLimits(head);
      } catch (err) {
        return err as Error;
      }
    }
    stream.push(head);
    return null;
  };
  const headBytes = type.image ? IMAGE_HEAD_BYTES : HEAD_BYTES;
  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      if (checked) return done(null, chunk);
      held.push(chunk);
      heldBytes += chunk.length;
      if (heldBytes < headBytes) return done();
      done(check(this));
    },
    flush(done: TransformCallback) {
      done(checked ? null : check(this));
    },
  });
}
