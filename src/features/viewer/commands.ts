import type { CommandSpec } from '@/lib/commands';
import { WINDOW_PRESETS } from './presets';

export type PrimaryTool = 'windowLevel' | 'pan' | 'zoom';

/** What the viewer's commands need; the viewer builds it from its live state on every render. */
export interface ViewerCommandContext {
  imageCount: number;
  seriesCount: number;
  move(delta: number): void;
  moveToEnd(end: 'first' | 'last'): void;
  switchSeries(delta: number): void;
  /** Presets offered for the current series' modality (ids of WINDOW_PRESETS). */
  presetIds: readonly string[];
  applyPreset(id: string): void;
  reset(): void;
  invert(): void;
  zoomBy(factor: number): void;
  useTool(tool: PrimaryTool): void;
  canCapture: boolean;
  capture(): void;
}

type Spec = CommandSpec<ViewerCommandContext>;
const hasImages = (ctx: ViewerCommandContext) => ctx.imageCount > 0;

function image(id: string, label: string, shortcut: string, delta: number): Spec {
  return { id, label, shortcut, scope: 'viewer', section: 'viewer.commands.sections.images', repeat: true, when: (ctx) => ctx.imageCount > 1, run: (ctx) => ctx.move(delta) };
}

function tool(name: PrimaryTool, shortcut: string): Spec {
  return { id: `viewer.tool.${name}`, label: `viewer.commands.tool.${name}`, shortcut, scope: 'viewer', section: 'viewer.commands.sections.tools', when: hasImages, run: (ctx) => ctx.useTool(name) };
}

/** The viewer's keys (scope 'viewer'): active wherever a study viewer is on screen, beside the report editor too. */
export const viewerCommands: readonly Spec[] = [
  image('viewer.image.next', 'viewer.commands.nextImage', 'j', 1),
  image('viewer.image.previous', 'viewer.commands.previousImage', 'k', -1),
  image('viewer.image.nextArrow', 'viewer.commands.nextImage', 'ArrowDown', 1),
  image('viewer.image.previousArrow', 'viewer.commands.previousImage', 'ArrowUp', -1),
  { id: 'viewer.image.first', label: 'viewer.commands.firstImage', shortcut: 'Home', scope: 'viewer', section: 'viewer.commands.sections.images', when: hasImages, run: (ctx) => ctx.moveToEnd('first') },
  { id: 'viewer.image.last', label: 'viewer.commands.lastImage', shortcut: 'End', scope: 'viewer', section: 'viewer.commands.sections.images', when: hasImages, run: (ctx) => ctx.moveToEnd('last') },
  { id: 'viewer.series.next', label: 'viewer.commands.nextSeries', shortcut: ']', scope: 'viewer', section: 'viewer.commands.sections.images', when: (ctx) => ctx.seriesCount > 1, run: (ctx) => ctx.switchSeries(1) },
  { id: 'viewer.series.previous', label: 'viewer.commands.previousSeries', shortcut: '[', scope: 'viewer', section: 'viewer.commands.sections.images', when: (ctx) => ctx.seriesCount > 1, run: (ctx) => ctx.switchSeries(-1) },
  ...WINDOW_PRESETS.map((preset, i): Spec => ({
    id: `viewer.preset.${preset.id}`,
    label: `viewer.presets.${preset.id}`,
    shortcut: String(i + 1),
    scope: 'viewer',
    section: 'viewer.commands.sections.window',
    keywords: ['W/L', 'window'],
    when: (ctx) => ctx.presetIds.includes(preset.id),
    run: (ctx) => ctx.applyPreset(preset.id),
  })),
  { id: 'viewer.invert', label: 'viewer.commands.invert', shortcut: 'i', scope: 'viewer', section: 'viewer.commands.sections.window', when: hasImages, run: (ctx) => ctx.invert() },
  { id: 'viewer.zoom.in', label: 'viewer.commands.zoomIn', shortcut: '=', scope: 'viewer', section: 'viewer.commands.sections.tools', repeat: true, when: hasImages, run: (ctx) => ctx.zoomBy(1.25) },
  { id: 'viewer.zoom.out', label: 'viewer.commands.zoomOut', shortcut: '-', scope: 'viewer', section: 'viewer.commands.sections.tools', repeat: true, when: hasImages, run: (ctx) => ctx.zoomBy(0.8) },
  { id: 'viewer.reset', label: 'viewer.commands.reset', shortcut: 'r', scope: 'viewer', section: 'viewer.commands.sections.tools', when: hasImages, run: (ctx) => ctx.reset() },
  tool('windowLevel', 'w'),
  tool('pan', 'p'),
  tool('zoom', 'z'),
  { id: 'viewer.capture', label: 'viewer.commands.capture', shortcut: 'c', scope: 'viewer', section: 'viewer.commands.sections.report', keywords: ['key image'], when: (ctx) => ctx.canCapture, run: (ctx) => ctx.capture() },
];
