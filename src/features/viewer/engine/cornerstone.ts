import { imageLoader, init as initCore, metaData, type Types } from '@cornerstonejs/core';
import { init as initLoader, wadouri } from '@cornerstonejs/dicom-image-loader';
import { PanTool, StackScrollTool, WindowLevelTool, ZoomTool, addTool, init as initTools } from '@cornerstonejs/tools';
import { naturalWindow } from '../../../../contract/dicom/window';

/**
 * Cornerstone3D, started once per page. This module and everything importing it live in the viewer's
 * own chunk: the worklist, the login page and the share pages without images never load it.
 */
let started = false;

export const TOOL_NAMES = {
  windowLevel: WindowLevelTool.toolName,
  pan: PanTool.toolName,
  zoom: ZoomTool.toolName,
  stackScroll: StackScrollTool.toolName,
} as const;

export function startCornerstone(): void {
  if (started) return;
  started = true;
  // Without WebGL (a locked-down browser, a headless test) core falls back to its CPU renderer by itself.
  initCore();
  // Decoding runs in workers; two are plenty for a stack and leave the reading room's machine some room.
  // The loader's parsing of whole files (dicom-parser, with its inflater): its newer "naturalized" path leaves a
  // 1-bit frame packed (drawn black) and cannot read Deflated Explicit VR Little Endian at all (issue 19).
  initLoader({ maxWebWorkers: Math.max(1, Math.min(2, Math.floor((navigator.hardwareConcurrency || 2) / 2))), useLegacyMetadataProvider: true });
  // Our files load through the loader's own wadouri loader, and each image leaves with the window it should open with.
  imageLoader.registerImageLoader('wadouri', (imageId, options) => {
    const load = wadouri.loadImage(imageId, options as Parameters<typeof wadouri.loadImage>[1]);
    return { ...load, promise: load.promise.then((image: Types.IImage) => withNaturalWindow(imageId, image)) };
  });
  initTools();
  for (const tool of [WindowLevelTool, PanTool, ZoomTool, StackScrollTool]) addTool(tool);
}

/** Sets the image's default window from its real range where the file's (or the loader's bit-depth guess) would hide it. */
function withNaturalWindow(imageId: string, image: Types.IImage): Types.IImage {
  const voi = metaData.get('voiLutModule', imageId) as { windowCenter?: number[] } | undefined;
  const pixel = metaData.get('imagePixelModule', imageId) as { bitsAllocated?: number } | undefined;
  const window = naturalWindow({
    color: Boolean(image.color), bitsAllocated: pixel?.bitsAllocated ?? null, fileWindow: Boolean(voi?.windowCenter?.length),
    min: image.minPixelValue, max: image.maxPixelValue, slope: image.slope ?? 1, intercept: image.intercept ?? 0,
  });
  if (window) {
    image.windowCenter = window.center;
    image.windowWidth = window.width;
  }
  return image;
}
