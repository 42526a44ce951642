import { Router } from 'wouter';
import { Toaster } from '@/lib/toasts';
import { AppRoutes } from './AppRoutes';
import { ExpiredModal } from '@/lib/session/ExpiredModal';

/** History-mode routing, the routes, and the two app-wide overlays: the "Login expired" modal and the toasts. */
export function App() {
  return (
    <Router>
      <AppRoutes />
      <ExpiredModal />
      <Toaster />
    </Router>
  );
}
