import type { SeriesList, ViewerInstance, ViewerSeries } from '../../../contract/viewer';

/** One picture of a stack: an instance, or one frame of a multi-frame instance. */
export interface StackImage {
  imageId: string;
  instanceId: number;
  /** 0-based frame within the instance. */
  frame: number;
  /** Frames of the instance (more than 1: a multi-frame image). */
  frames: number;
  instanceNumber: number | null;
}

export interface Stack {
  series: ViewerSeries;
  images: StackImage[];
}

/**
 * The loader fetches files itself (XMLHttpRequest, no bearer header), so each file URL carries a view
 * token. `base` is the absolute API base ('https://host/api/v1/'). Multi-frame instances give one image
 * per frame (the loader counts frames from 1).
 */
export function instanceImages(instance: ViewerInstance, token: string, base: string): StackImage[] {
  const url = `${base}${instance.path}${instance.path.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`;
  const frames = Math.max(1, instance.frames);
  return Array.from({ length: frames }, (_, frame) => ({
    imageId: frames > 1 ? `wadouri:${url}&frame=${frame + 1}` : `wadouri:${url}`,
    instanceId: instance.id,
    frame,
    frames,
    instanceNumber: instance.instanceNumber,
  }));
}

/** Series as the server ordered them (by number, instances by number), frames in order within each. */
export function stacksOf(list: SeriesList, token: string, base: string): Stack[] {
  return list.series
    .map((series) => ({ series, images: series.instances.flatMap((instance) => instanceImages(instance, token, base)) }))
    .filter((stack) => stack.images.length > 0);
}

/** Index after moving `delta` images, held at both ends (scrolling past the last image stays on it). */
export function clampIndex(index: number, delta: number, length: number): number {
  if (length === 0) return 0;
  return Math.min(length - 1, Math.max(0, index + delta));
}

/** The first frame of an instance as a small windowed PNG (GET instances/{id}/preview), for an <img>: the token rides in the query. */
export function previewUrl(base: string, instanceId: number, token: string): string {
  return `${base}instances/${instanceId}/preview?token=${encodeURIComponent(token)}`;
}
