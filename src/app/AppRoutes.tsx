import { Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { ScreenErrorBoundary } from '@/features/errors/ScreenErrorBoundary';
import { Spinner } from '@/ui/Spinner';
import { Guard } from '@/lib/session/Guard';
import { findRoute } from './routeMatch';
import { notFoundRoute, routes, type AppRoute } from './routes';
import { AppShell } from './shell/AppShell';
import { statusOf, useSessionSelector } from '@/lib/session';

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
  return withShell ? <AppShell>{children}</AppShell> : <main id="main" className="min-h-screen bg-bg">{children}</main>;
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
