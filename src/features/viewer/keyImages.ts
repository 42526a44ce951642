import { useEffect, useSyncExternalStore } from 'react';
import { KEY_IMAGES_MAX, KEY_IMAGE_MAX_BYTES } from '../../../contract/constants';
import type { KeyImage } from '../../../contract/images';
import { registerModuleReset } from '@/lib/session';
import { HttpError, http } from '@/lib/http';

/**
 * A report's key images (core §2 "capture key images"; §5: at most 6, each 5 MB or smaller). One small
 * store per report so the viewer's capture and the workspace's <KeyImages> show the same list; it lives
 * outside the viewer's chunk so the workspace and the print view read it without loading Cornerstone.
 */
export interface KeyImagesState {
  items: KeyImage[];
  loading: boolean;
  error: unknown;
}

const EMPTY: KeyImagesState = { items: [], loading: true, error: null };
const states = new Map<number, KeyImagesState>();
const listeners = new Map<number, Set<() => void>>();
const inFlight = new Map<number, Promise<KeyImage[]>>();

registerModuleReset(() => {
  states.clear();
  inFlight.clear();
  for (const set of listeners.values()) set.forEach((l) => l());
});

function set(reportId: number, next: KeyImagesState) {
  states.set(reportId, next);
  listeners.get(reportId)?.forEach((l) => l());
}

/** The list as the server has it now (with fresh read links, which live an hour). */
export function fetchKeyImages(reportId: number): Promise<KeyImage[]> {
  return http.get<KeyImage[]>(`reports/${reportId}/images`);
}

export function refreshKeyImages(reportId: number): Promise<KeyImage[]> {
  const running = inFlight.get(reportId);
  if (running) return running;
  const current = states.get(reportId);
  set(reportId, { items: current?.items ?? [], loading: true, error: null });
  const request = fetchKeyImages(reportId).then(
    (items) => {
      set(reportId, { items, loading: false, error: null });
      return items;
    },
    (error: unknown) => {
      set(reportId, { items: current?.items ?? [], loading: false, error });
      throw error;
    },
  ).finally(() => inFlight.delete(reportId));
  inFlight.set(reportId, request);
  return request;
}

export function useKeyImages(reportId: number): KeyImagesState {
  const state = useSyncExternalStore(
    (listener) => {
      let set = listeners.get(reportId);
      if (!set) listeners.set(reportId, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    },
    () => states.get(reportId) ?? EMPTY,
  );
  useEffect(() => {
    if (!states.has(reportId)) refreshKeyImages(reportId).catch(() => undefined);
  }, [reportId]);
  return state;
}

/** Why a capture cannot go up, checked before sending (the server checks again under the report's lock). */
export function keyImageRefusal(count: number, size: number): 'TooManyImages' | 'FileTooLarge' | null {
  if (count >= KEY_IMAGES_MAX) return 'TooManyImages';
  if (size > KEY_IMAGE_MAX_BYTES) return 'FileTooLarge';
  return null;
}

export interface KeyImageCapture {
  blob: Blob;
  instanceId: number | null;
  frame: number | null;
  description: string | null;
}

/** Sends a captured view to the report; the list refreshes so every <KeyImages> of that report shows it. */
export async function addKeyImage(reportId: number, capture: KeyImageCapture): Promise<KeyImage> {
  const known = states.get(reportId)?.items ?? (await refreshKeyImages(reportId));
  const refusal = keyImageRefusal(known.length, capture.blob.size);
  if (refusal) throw new HttpError(refusal, 400, refusal);
  const form = new FormData();
  // Text fields first: the server reads them before it streams the file.
  if (capture.instanceId !== null) form.append('instanceId', String(capture.instanceId));
  if (capture.frame !== null) form.append('frame', String(capture.frame));
  if (capture.description) form.append('description', capture.description.slice(0, 256));
  form.append('file', capture.blob, capture.blob.type === 'image/jpeg' ? 'key-image.jpg' : 'key-image.png');
  const created = await http.post<KeyImage>(`reports/${reportId}/images`, form);
  set(reportId, { items: [...(states.get(reportId)?.items ?? []), created], loading: false, error: null });
  void refreshKeyImages(reportId).catch(() => undefined);
  return created;
}

export async function removeKeyImage(reportId: number, imageId: number): Promise<void> {
  await http.delete(`reports/${reportId}/images/${imageId}`);
  const current = states.get(reportId);
  if (current) set(reportId, { ...current, items: current.items.filter((i) => i.id !== imageId) });
}
