import { Router } from 'wouter';
import { Toaster } from '@/lib/toasts';
import { AppRoutes } from './AppRoutes';
import { ExpiredModal } from '@/lib/session/ExpiredModal';
import { PageViews } from '@/features/analytics';

/**
 * History-mode routing, the routes, and the two app-wide overlays: the "Login expired" modal and the toasts; and the
 * page-view hook, which sends nothing unless the deployment names a collector.
 */
export function App() {
  return (
    <Router>
      <AppRoutes />
      <ExpiredModal />
      <Toaster />
      <PageViews />
    </Router>
  );
}
