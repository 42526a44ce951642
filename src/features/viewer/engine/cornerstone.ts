import { init as initCore } from '@cornerstonejs/core';
import { init as initLoader } from '@cornerstonejs/dicom-image-loader';
import { PanTool, StackScrollTool, WindowLevelTool, ZoomTool, addTool, init as initTools } from '@cornerstonejs/tools';

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
  initLoader({ maxWebWorkers: Math.max(1, Math.min(2, Math.floor((navigator.hardwareConcurrency || 2) / 2))) });
  initTools();
  for (const tool of [WindowLevelTool, PanTool, ZoomTool, StackScrollTool]) addTool(tool);
}
