import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { useDomain } from '@/lib/session/domain';
import { beacon, createPageViewTracker } from './pageViews';

/**
 * The page-view hook of core §7, made opt-in: with the deployment's ANALYTICS_URL (handed over in GET domain) each
 * route change sends one view to that self-hosted collector; without it (the default) this renders and sends nothing.
 */
export function PageViews() {
  const endpoint = useDomain()?.analyticsUrl ?? null;
  const tracker = useMemo(() => createPageViewTracker(endpoint, beacon), [endpoint]);
  const [location] = useLocation();
  const { i18n } = useTranslation();
  useEffect(() => {
    tracker.view(location, i18n.language);
  }, [tracker, location, i18n.language]);
  return null;
}
