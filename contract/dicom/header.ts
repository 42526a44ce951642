import * as dicomParserModule from 'dicom-parser';
import type { DataSet, ParseDicomOptions } from 'dicom-parser';
import { inflateSync } from 'fflate';
import { charsetOf, decodeText, type Charset } from './charset';

/**
 * Reads the header of one DICOM file into the fields the exam, the instance index and the viewer
 * need. Pure (Uint8Array in, plain object out): the upload wizard runs it in the browser to pre-fill
 * the exam and group the chosen files, the server runs it on every uploaded file to decide and index.
 * dicom-parser does the tag walking (explicit/implicit VR, big endian, deflated with our inflater,
 * encapsulated pixel data); text values are decoded here by Specific Character Set.
 */

// dicom-parser is a UMD bundle: Node's ESM loader exposes it as `default`, bundlers as the namespace.
const dicomParser = ((dicomParserModule as unknown as { default?: typeof dicomParserModule }).default ?? dicomParserModule);

export interface DicomHeader {
  transferSyntaxUid: string;
  sopClassUid: string | null;
  sopInstanceUid: string;
  studyInstanceUid: string;
  seriesInstanceUid: string;
  modality: string | null;
  seriesNumber: number | null;
  seriesDescription: string | null;
  instanceNumber: number | null;
  rows: number | null;
  columns: number | null;
  /** Number of Frames (0028,0008); 1 for a single-frame image. */
  frames: number;
  photometricInterpretation: string | null;
  bitsAllocated: number | null;
  /** The Person Name as written, decoded: components separated by '^', groups by '='. */
  patientName: string | null;
  patientId: string | null;
  /** YYYY-MM-DD */
  patientBirthDate: string | null;
  patientSex: string | null;
  /** As written, e.g. '045Y'. */
  patientAge: string | null;
  patientWeight: number | null;
  /** YYYY-MM-DD */
  studyDate: string | null;
  /** HH:MM:SS */
  studyTime: string | null;
  studyDescription: string | null;
  accessionNumber: string | null;
  bodyPartExamined: string | null;
  institutionName: string | null;
  referringPhysicianName: string | null;
  /** Station Name (0008,1010): the scanner's name, which the organisation's devices are matched by at ingest. */
  stationName: string | null;
  specificCharacterSet: string | null;
  hasPixelData: boolean;
  /** Pixel data in fragments (JPEG, RLE, ...) rather than native. */
  encapsulated: boolean;
  /** true when the file came without the 128-byte preamble and 'DICM' (a bare data set). */
  bareDataSet: boolean;
}

/** Why a file was refused; `code` is the error catalogue's. */
export type DicomRefusal =
  | { code: 'NotDicom'; reason: 'empty' | 'notDicom'; message: string }
  | { code: 'InvalidDicom'; reason: 'truncated' | 'unreadable' | 'missingUid'; message: string };

export type DicomReadResult = { ok: true; header: DicomHeader; warnings: string[] } | ({ ok: false } & DicomRefusal);

export interface ReadOptions {
  /**
   * The file's full size when `bytes` is only its beginning (large files are streamed to storage
   * and only their head is kept): the header is read up to the pixel data, whose declared length
   * is then checked against the full size. `tail` must then hold the file's last 8 bytes.
   */
  totalSize?: number;
  tail?: Uint8Array;
}

const PIXEL_DATA = 'x7fe00010';
const SEQUENCE_DELIMITER = [0xfe, 0xff, 0xdd, 0xe0, 0, 0, 0, 0];
const EXPLICIT_LE = '1.2.840.10008.1.2.1';
const IMPLICIT_LE = '1.2.840.10008.1.2';
const DEFLATED = '1.2.840.10008.1.2.1.99';
const VRS = new Set(['AE', 'AS', 'AT', 'CS', 'DA', 'DS', 'DT', 'FL', 'FD', 'IS', 'LO', 'LT', 'OB', 'OD', 'OF', 'OL', 'OV', 'OW', 'PN', 'SH', 'SL', 'SQ', 'SS', 'ST', 'SV', 'TM', 'UC', 'UI', 'UL', 'UN', 'UR', 'US', 'UT', 'UV']);

export function hasPreamble(bytes: Uint8Array): boolean {
  return bytes.length >= 132 && bytes[128] === 0x44 && bytes[129] === 0x49 && bytes[130] === 0x43 && bytes[131] === 0x4d;
}

/**
 * A file without the preamble may still be a bare data set (old modalities and archives write
 * them): it must open with a group 0x0002 or 0x0008 element; explicit VR when two VR letters follow.
 */
function bareTransferSyntax(bytes: Uint8Array): string | null {
  if (bytes.length < 16) return null;
  const group = bytes[0]! | (bytes[1]! << 8);
  if (group !== 0x0002 && group !== 0x0008) return null;
  const vr = String.fromCharCode(bytes[4]!, bytes[5]!);
  return VRS.has(vr) ? EXPLICIT_LE : IMPLICIT_LE;
}

/** Deflated data sets: dicom-parser calls back for the inflation; fflate works in the browser and in Node. */
function inflater(byteArray: Uint8Array, position: number): Uint8Array {
  const inflated = inflateSync(byteArray.subarray(position));
  const full = new Uint8Array(position + inflated.length);
  full.set(byteArray.subarray(0, position), 0);
  full.set(inflated, position);
  return full;
}

const refuse = (code: DicomRefusal['code'], reason: DicomRefusal['reason'], message: string): DicomReadResult =>
  ({ ok: false, code, reason, message } as DicomReadResult);

function describe(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error && typeof error === 'object') {
    const e = error as { exception?: unknown; message?: unknown };
    if (e.exception !== undefined) return describe(e.exception);
    if (typeof e.message === 'string') return e.message;
  }
  return String(error);
}

const PAST_END = /past end|overrun|eof|end of buffer|beyond|missing sequence delimiter/i;
const BROKEN_PIXELS = /unexpected tag .* pixel data/i;

export function readDicomHeader(bytes: Uint8Array, opts: ReadOptions = {}): DicomReadResult {
  const totalSize = opts.totalSize ?? bytes.length;
  if (totalSize === 0) return refuse('NotDicom', 'empty', 'The file is empty');
  const partial = totalSize > bytes.length;
  const preamble = hasPreamble(bytes);
  const bareSyntax = preamble ? null : bareTransferSyntax(bytes);
  if (!preamble && !bareSyntax) {
    return refuse('NotDicom', 'notDicom', "No 'DICM' marker at byte 128 and no DICOM data set at the start of the file");
  }
  const options: ParseDicomOptions = { inflater };
  if (bareSyntax) options.TransferSyntaxUID = bareSyntax;
  if (partial) options.untilTag = PIXEL_DATA;

  let ds: DataSet;
  try {
    ds = dicomParser.parseDicom(bytes, options);
  } catch (error) {
    const detail = describe(error);
    if (!preamble) return refuse('NotDicom', 'notDicom', `Not a readable DICOM data set (${detail})`);
    if (PAST_END.test(detail) && !partial) return refuse('InvalidDicom', 'truncated', `The file ends before its data does (${detail})`);
    return refuse('InvalidDicom', 'unreadable', `The DICOM data could not be read (${detail})`);
  }
  const transferSyntaxUid = str(ds, 'x00020010') ?? bareSyntax ?? EXPLICIT_LE;
  if (partial && transferSyntaxUid === DEFLATED) {
    return refuse('InvalidDicom', 'unreadable', 'A deflated data set must be read whole; this one is too large');
  }
  const warnings = [...(ds.warnings ?? [])];
  if (warnings.some((w) => PAST_END.test(w))) return refuse('InvalidDicom', 'truncated', `The file ends before its data does (${warnings.join('; ')})`);
  if (warnings.some((w) => BROKEN_PIXELS.test(w))) return refuse('InvalidDicom', 'unreadable', `The pixel data is damaged (${warnings.join('; ')})`);

  const pixel = ds.elements[PIXEL_DATA];
  if (partial) {
    if (!pixel) return refuse('InvalidDicom', 'unreadable', 'The header is too large to read');
    const complete = pixel.hadUndefinedLength
      ? endsWith(opts.tail ?? new Uint8Array(), SEQUENCE_DELIMITER)
      : pixel.dataOffset + pixel.length <= totalSize;
    if (!complete) return refuse('InvalidDicom', 'truncated', 'The file ends before its pixel data does');
  }

  const sopInstanceUid = str(ds, 'x00080018') ?? str(ds, 'x00020003');
  const studyInstanceUid = str(ds, 'x0020000d');
  const seriesInstanceUid = str(ds, 'x0020000e');
  if (!sopInstanceUid || !studyInstanceUid || !seriesInstanceUid) {
    const missing = [!sopInstanceUid && 'SOP Instance UID', !studyInstanceUid && 'Study Instance UID', !seriesInstanceUid && 'Series Instance UID'].filter(Boolean);
    if (!preamble) return refuse('NotDicom', 'notDicom', `Not a DICOM instance: no ${missing.join(', ')}`);
    // A file cut inside its header reads as a header that stops early: no UIDs and no pixel data.
    if (!pixel) return refuse('InvalidDicom', 'truncated', `The file ends before its data does (no ${missing.join(', ')}, no pixel data)`);
    return refuse('InvalidDicom', 'missingUid', `The file has no ${missing.join(', ')}`);
  }
  // A file cut exactly between two elements parses cleanly: an image whose pixel data never came.
  const sopClassUid = str(ds, 'x00080016') ?? str(ds, 'x00020002');
  if (!pixel && ((ds.elements.x00280010 && ds.elements.x00280011) || isImageStorage(sopClassUid))) {
    return refuse('InvalidDicom', 'truncated', 'The file ends before its pixel data');
  }
  for (const uid of [sopInstanceUid, studyInstanceUid, seriesInstanceUid]) {
    if (!isUid(uid)) return refuse('InvalidDicom', 'unreadable', `Malformed UID '${uid.slice(0, 80)}'`);
  }

  const specificCharacterSet = str(ds, 'x00080005');
  const charset = charsetOf(specificCharacterSet);
  if (charset.unknown.length) warnings.push(`Unknown character set ${charset.unknown.join(', ')}: read as Latin-1`);
  const txt = (tag: string) => text(ds, tag, charset);

  return {
    ok: true,
    warnings,
    header: {
      transferSyntaxUid,
      sopClassUid,
      sopInstanceUid,
      studyInstanceUid,
      seriesInstanceUid,
      modality: str(ds, 'x00080060')?.toUpperCase() ?? null,
      seriesNumber: int(ds, 'x00200011'),
      seriesDescription: txt('x0008103e'),
      instanceNumber: int(ds, 'x00200013'),
      rows: ds.elements.x00280010 ? ds.uint16('x00280010') ?? null : null,
      columns: ds.elements.x00280011 ? ds.uint16('x00280011') ?? null : null,
      frames: Math.max(1, int(ds, 'x00280008') ?? 1),
      photometricInterpretation: str(ds, 'x00280004'),
      bitsAllocated: ds.elements.x00280100 ? ds.uint16('x00280100') ?? null : null,
      patientName: txt('x00100010'),
      patientId: txt('x00100020'),
      patientBirthDate: date(str(ds, 'x00100030')),
      patientSex: str(ds, 'x00100040')?.toUpperCase() ?? null,
      patientAge: str(ds, 'x00101010'),
      patientWeight: num(ds, 'x00101030'),
      studyDate: date(str(ds, 'x00080020')),
      studyTime: time(str(ds, 'x00080030')),
      studyDescription: txt('x00081030'),
      accessionNumber: txt('x00080050'),
      bodyPartExamined: str(ds, 'x00180015'),
      institutionName: txt('x00080080'),
      referringPhysicianName: txt('x00080090'),
      stationName: str(ds, 'x00081010'),
      specificCharacterSet,
      hasPixelData: Boolean(pixel),
      encapsulated: Boolean(pixel?.hadUndefinedLength),
      bareDataSet: !preamble,
    },
  };
}

/** Image storage SOP classes (PS3.4 B.5): their instances always carry pixel data; SR, PR, KO, RT plans, PDFs do not. */
const IMAGE_STORAGE = /^1\.2\.840\.10008\.5\.1\.4\.1\.1\.(1(\.\d+)*|2(\.\d+)?|3\.1|4(\.\d+)?|6(\.\d+)?|7(\.\d+)?|12\.\d+|13\.1\.\d+|20|30|77\.1\.\d+(\.\d+)?|128(\.\d+)?|130|481\.1)$/;

export function isImageStorage(sopClassUid: string | null): boolean {
  return sopClassUid !== null && IMAGE_STORAGE.test(sopClassUid);
}

function endsWith(bytes: Uint8Array, suffix: number[]): boolean {
  if (bytes.length < suffix.length) return false;
  const at = bytes.length - suffix.length;
  return suffix.every((b, i) => bytes[at + i] === b);
}

/** ASCII values (UI, CS, DA, TM, IS, DS, AS): dicom-parser reads them up to the first NUL and trims. */
function str(ds: DataSet, tag: string): string | null {
  if (!ds.elements[tag]) return null;
  const value = ds.string(tag);
  return value ? value.replace(/\0/g, '').trim() || null : null;
}

function text(ds: DataSet, tag: string, charset: Charset): string | null {
  const el = ds.elements[tag];
  if (!el || el.length === 0 || el.hadUndefinedLength) return null;
  const value = decodeText(ds.byteArray.subarray(el.dataOffset, el.dataOffset + el.length), charset).trim();
  return value || null;
}

function int(ds: DataSet, tag: string): number | null {
  const value = str(ds, tag);
  if (value === null) return null;
  const n = Number.parseInt(value.split('\\')[0]!, 10);
  return Number.isFinite(n) && Math.abs(n) <= 2_147_483_647 ? n : null;
}

function num(ds: DataSet, tag: string): number | null {
  const value = str(ds, tag);
  const n = value === null ? Number.NaN : Number.parseFloat(value);
  return Number.isFinite(n) ? n : null;
}

export function isUid(value: string): boolean {
  return value.length <= 64 && /^[0-9]+(\.[0-9]+)*$/.test(value);
}

/** DA 'YYYYMMDD' (or the old 'YYYY.MM.DD') → 'YYYY-MM-DD'; anything else → null. */
function date(value: string | null): string | null {
  const m = value?.match(/^(\d{4})\.?(\d{2})\.?(\d{2})$/);
  if (!m) return null;
  const [, y, mo, d] = m;
  if (Number(mo) < 1 || Number(mo) > 12 || Number(d) < 1 || Number(d) > 31) return null;
  return `${y}-${mo}-${d}`;
}

/** TM 'HHMMSS.FFFFFF' (or 'HH:MM:SS') → 'HH:MM:SS', missing parts as 00. */
function time(value: string | null): string | null {
  const m = value?.match(/^(\d{2}):?(\d{2})?:?(\d{2})?/);
  if (!m) return null;
  const [, h, mi = '00', s = '00'] = m;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 60) return null;
  return `${h}:${mi}:${s}`;
}
