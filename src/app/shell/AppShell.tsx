import { lazy, Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { GlobalCommands } from '@/features/palette';
import { SettingsCommands } from '@/features/settings';
import { ToastLane } from '@/lib/toasts';
import { Navbar } from './Navbar';

// The pollers (and the contract schemas their feeds read) load after the first paint, in a chunk of their own: the
// sign-in screen does not carry them.
const NotifyPolling = lazy(() => import('@/features/notify/NotifyPolling').then((m) => ({ default: m.NotifyPolling })));

/**
 * The frame of every signed-in screen: navbar on top, the screen below with the notification lane at its right (it
 * takes room only while toasts are up, and the screen is laid out in the rest), the global commands and the
 * notification polling mounted once.
 */
export function AppShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-screen flex-col bg-bg">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-raised focus:px-3 focus:py-1">
        {t('shell.skipToContent')}
      </a>
      <Navbar />
      <div className="flex min-h-0 flex-1">
        <main id="main" tabIndex={-1} className="flex min-h-0 min-w-0 flex-1 flex-col outline-none">
          {children}
        </main>
        <ToastLane />
      </div>
      <GlobalCommands />
      <Suspense fallback={null}><NotifyPolling /></Suspense>
      <SettingsCommands />
    </div>
  );
}
