import { useEffect } from 'react';

/**
 * The procedures tab shows an organisation's devices twice (the ordered list, the DICOM panel), each with its own
 * load: a write in one tells the other to load again.
 */
const listeners = new Set<(orgId: number) => void>();

export function devicesChanged(orgId: number): void {
  for (const listener of listeners) listener(orgId);
}

export function useDevicesChanged(orgId: number, reload: () => void): void {
  useEffect(() => {
    const listener = (changed: number) => { if (changed === orgId) reload(); };
    listeners.add(listener);
    return () => { listeners.delete(listener); };
  }, [orgId, reload]);
}
