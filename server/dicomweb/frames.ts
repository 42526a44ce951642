import type { JsonElement } from './json';
import { decodeFrame, NoSuchFrameError, parsePixelFile, PixelError } from '../viewer/pixels';

/**
 * WADO-RS frames are answered uncompressed (Explicit VR Little Endian): a native file's frame is its own bytes (big
 * endian swapped, 1-bit frames re-packed from their bit offset); an encapsulated one is decoded by the viewer's codecs
 * (server/viewer/pixels.ts), colour as interleaved RGB.
 */
export async function framePixels(file: Uint8Array, index: number): Promise<Uint8Array> {
  const ds = parsePixelFile(file);
  const pixel = ds.elements.x7fe00010;
  if (!pixel) throw new PixelError('no pixel data');
  const frames = Math.max(1, Number(ds.intString('x00280008') ?? 1) || 1);
  if (index < 0 || index >= frames) throw new NoSuchFrameError(`no frame ${index + 1}`);
  const rows = ds.uint16('x00280010') ?? 0;
  const columns = ds.uint16('x00280011') ?? 0;
  const spp = ds.uint16('x00280002') ?? 1;
  const bits = ds.uint16('x00280100') ?? 16;
  const signed = ds.uint16('x00280103') === 1;
  const count = rows * columns * spp;
  if (!pixel.encapsulatedPixelData) {
    const data = ds.byteArray.subarray(pixel.dataOffset, pixel.dataOffset + pixel.length);
    if (bits === 1) {
      const first = index * count;
      if (data.length * 8 < first + count) throw new PixelError('pixel data too short');
      const out = new Uint8Array(Math.ceil(count / 8));
      for (let i = 0; i < count; i++) if ((data[(first + i) >> 3]! >> ((first + i) & 7)) & 1) out[i >> 3]! |= 1 << (i & 7);
      return out;
    }
    const size = count * (bits / 8);
    const frame = data.subarray(index * size, index * size + size);
    if (frame.length < size) throw new PixelError('pixel data too short');
    const syntax = ds.string('x00020010') ?? '';
    if (syntax !== '1.2.840.10008.1.2.2' || bits === 8) return frame;
    const out = new Uint8Array(frame);
    const step = bits / 8;
    for (let i = 0; i < out.length; i += step) out.subarray(i, i + step).reverse();
    return out;
  }
  const decoded = await decodeFrame(file, index, ds);
  const values = decoded.values;
  if (decoded.samples === 3 || bits <= 8) return Uint8Array.from({ length: values.length }, (_, i) => values[i]!);
  const out = new Uint8Array(values.length * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < values.length; i++) {
    if (signed) view.setInt16(i * 2, values[i]!, true);
    else view.setUint16(i * 2, values[i]!, true);
  }
  return out;
}

/**
 * What the metadata must say of the frames as they are served: an encapsulated colour file's frames come decoded to
 * interleaved RGB. Nothing changes for a native file (its frames are its own bytes).
 */
export function servedImageFacts(file: Uint8Array): Record<string, JsonElement> {
  try {
    const ds = parsePixelFile(file);
    const pixel = ds.elements.x7fe00010;
    if (!pixel?.encapsulatedPixelData) return {};
    if ((ds.uint16('x00280002') ?? 1) !== 3) return {};
    return { '00280004': { vr: 'CS', Value: ['RGB'] }, '00280006': { vr: 'US', Value: [0] } };
  } catch {
    return {};
  }
}
