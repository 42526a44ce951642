import { Redirect } from 'wouter';
import { useSession } from '@/lib/session';
import { landingPath } from '@/lib/session/landing';
import { isRegistered } from '@/lib/session/routeRegistry';

/** The root goes to the landing page of the signed-in account (core §2). */
export function LandingRedirect() {
  const { permissions } = useSession();
  return <Redirect to={landingPath(permissions, isRegistered)} replace />;
}
