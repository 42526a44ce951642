import { useEffect, useRef } from 'react';

/**
 * Calls `tick` every `ms` while the page is visible and `active` holds (a screen stops quietly once its session has
 * ended: the "Login expired" modal deals with that, and `onSessionResumed` brings the screen back).
 */
export function usePolling(tick: () => void, ms: number, active: boolean): void {
  const latest = useRef(tick);
  useEffect(() => {
    latest.current = tick;
  });
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') latest.current();
    }, ms);
    return () => clearInterval(timer);
  }, [ms, active]);
}
