import { useEffect, useState } from 'react';
import type { TemplateNode } from '../../../../contract/reports';
import { registerModuleReset } from '@/lib/session';
import { reportApi } from '../api';

/**
 * An organisation's writing templates, fetched once per visit and shared by the slash picker and the palette.
 * Module state, so it is cleared at logout with the rest (core §4).
 */
const cache = new Map<number, Promise<TemplateNode[]>>();
registerModuleReset(() => cache.clear());

export function loadTemplates(bucketId: number): Promise<TemplateNode[]> {
  let pending = cache.get(bucketId);
  if (!pending) {
    pending = reportApi.templates(bucketId).then((page) => page.items);
    // A failure is not remembered: the next opening of the picker asks again.
    pending.catch(() => cache.delete(bucketId));
    cache.set(bucketId, pending);
  }
  return pending;
}

export interface TemplatesState {
  roots: TemplateNode[] | null;
  error: unknown;
}

/** The tree of `bucketId` once `enabled` (the user may write); null while loading. */
export function useTemplates(bucketId: number | null, enabled: boolean): TemplatesState & { retry: () => void } {
  const [state, setState] = useState<TemplatesState>({ roots: null, error: null });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (bucketId === null || !enabled) return;
    let live = true;
    loadTemplates(bucketId).then(
      (roots) => live && setState({ roots, error: null }),
      (error: unknown) => live && setState({ roots: null, error }),
    );
    return () => {
      live = false;
    };
  }, [bucketId, enabled, attempt]);
  return { ...state, retry: () => setAttempt((n) => n + 1) };
}
