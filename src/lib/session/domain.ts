import { useSyncExternalStore } from 'react';
import type { DomainInfo } from '../../../contract/domain';
import { http } from '@/lib/http';

let domain: DomainInfo | null = null;
let pending: Promise<DomainInfo | null> | null = null;
const listeners = new Set<() => void>();

/**
 * GET domain once at start (core §1): the page title is the domain's display name. A failure leaves
 * the title as it was; the login screen still works without it.
 */
export function loadDomain(): Promise<DomainInfo | null> {
  pending ??= http.get<DomainInfo>('domain').then(
    (info) => {
      domain = info;
      if (info.displayName) document.title = info.displayName;
      listeners.forEach((l) => l());
      return info;
    },
    () => {
      pending = null;
      return null;
    },
  );
  return pending;
}

export function useDomain(): DomainInfo | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => domain,
    () => domain,
  );
}
