import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NotifyPolling } from '@/features/notify/NotifyPolling';
import { GlobalCommands } from '@/features/palette';
import { SettingsCommands } from '@/features/settings';
import { Navbar } from './Navbar';

/** The frame of every signed-in screen: navbar on top, the screen below, the global commands and the notification polling mounted once. */
export function AppShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-screen flex-col bg-bg">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-raised focus:px-3 focus:py-1">
        {t('shell.skipToContent')}
      </a>
      <Navbar />
      <main id="main" tabIndex={-1} className="flex min-h-0 flex-1 flex-col outline-none">
        {children}
      </main>
      <GlobalCommands />
      <NotifyPolling />
      <SettingsCommands />
    </div>
  );
}
