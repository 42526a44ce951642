import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { loadDomain } from './lib/session/domain';
import { sessionActor, statusOf } from './lib/session';
import { warmRoute } from './lib/session/routeRegistry';
import { initI18n } from './lib/i18n';
import { initTheme } from './lib/theme';
import { startEarlyKeys } from './lib/commands/earlyKeys';
import './styles.css';

// Before anything awaits: keys pressed while the screens' code loads are kept for the shortcuts (issue 37).
startEarlyKeys();
initTheme();
await initI18n();
// A kept session goes straight to its screen: its frame and code are fetched while the session is restored, not after
// (issue 37).
if (statusOf(sessionActor().getSnapshot()) === 'loading') warmRoute(location.pathname);
void loadDomain();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
