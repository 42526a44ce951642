import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { ScreenErrorBoundary } from '@/features/errors/ScreenErrorBoundary';
import { Spinner } from '@/ui/Spinner';
import { Guard } from '@/lib/session/Guard';
import { findRoute } from './routeMatch';
import { notFoundRoute, routes, type AppRoute } from './routes';
import { statusOf, useSessionSelector } from '@/lib/session';
import { loadAllTexts } from '@/lib/i18n';
import { loadChunk } from '@/lib/session/chunks';
import { registerRouteWarmer } from '@/lib/session/routeRegistry';
import { useMainFocus } from '@/lib/mainFocus';

/**
 * The signed-in frame (navbar, palette, global commands, pollers) is a chunk of its own, shown with the features'
 * texts it names, with the compositions only its screens use (the workspace's and the worklist's slots, the palette's
 * search providers) filled before it: the sign-in page, bare and public screens never load any of it (the /login
 * budget).
 */
let shellLoad: Promise<{ default: ComponentType<{ children: ReactNode }> }> | null = null;
function loadShell() {
  shellLoad ??= loadChunk(async () => {
    const [shell] = await Promise.all([import('./shell/AppShell'), import('./slots'), import('./paletteSearch'), loadAllTexts()]);
    return { default: shell.AppShell };
  }).catch((error: unknown) => {
    shellLoad = null; // the real load tries again and shows the failure
    throw error;
  });
  return shellLoad;
}
const AppShell = lazy(loadShell);

// A path's frame and screen, fetched together ahead of time (src/lib/session/routeRegistry.ts `warmRoute`).
registerRouteWarmer((path) => {
  const route = findRoute(path.split(/[?#]/, 1)[0]!) ?? notFoundRoute;
  if (route.layout !== 'bare') void loadShell().catch(() => undefined);
  route.screen?.preload?.();
});

function ScreenFallback() {
  const { t } = useTranslation();
  return (
    <div className="flex h-40 items-center justify-center">
      <Spinner label={t('common.loading')} />
    </div>
  );
}

function Layout({ layout, children }: { layout: AppRoute['layout']; children: ReactNode }) {
  const status = useSessionSelector(statusOf);
  const withShell = layout === 'shell' || (layout === 'auto' && status !== 'signedOut' && status !== 'loggedOut' && status !== 'signingIn');
  if (!withShell) return <main id="main" className="min-h-screen bg-bg">{children}</main>;
  return (
    <Suspense fallback={<main id="main" className="min-h-screen bg-bg"><ScreenFallback /></main>}>
      <AppShell>{children}</AppShell>
    </Suspense>
  );
}

function RouteBody({ route }: { route: AppRoute }) {
  const [location] = useLocation();
  const Screen = route.screen;
  const body = route.redirect ? (
    <Redirect to={route.redirect} replace />
  ) : Screen ? (
    <ScreenErrorBoundary resetKey={location}>
      <Suspense fallback={<ScreenFallback />}>
        <Screen />
      </Suspense>
    </ScreenErrorBoundary>
  ) : null;
  return route.access === 'auth' ? <Guard>{body}</Guard> : body;
}

/**
 * The route table rendered in order, with the page-not-found catch-all last. The layout sits
 * outside the Switch so moving between two shell screens keeps the navbar mounted: no flicker,
 * no lost navbar state, no layout jump.
 */
export function AppRoutes() {
  const [location] = useLocation();
  const current = findRoute(location) ?? notFoundRoute;
  // Each new screen's main control (`data-main-control`) takes the keyboard when it arrives (src/lib/mainFocus.ts).
  useMainFocus(location);
  return (
    <Layout layout={current.layout}>
      <Switch>
        {routes.map((route) => (
          <Route key={route.path} path={route.path}>
            <RouteBody route={route} />
          </Route>
        ))}
        <Route>
          <RouteBody route={notFoundRoute} />
        </Route>
      </Switch>
    </Layout>
  );
}
