import { useEffect } from 'react';

/**
 * While `when` holds (unsaved text, files still on their way), leaving the page asks the browser's own question.
 * Used by the templates' editor and the upload wizard.
 */
export function useLeaveWarning(when: boolean) {
  useEffect(() => {
    if (!when) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [when]);
}
