import { Redirect } from 'wouter';
import { useSession } from './session';
import { landingPath } from './landing';
import { isRegistered } from './routeMatch';

/** The root goes to the landing page of the signed-in account (core §2). */
export function LandingRedirect() {
  const { permissions } = useSession();
  return <Redirect to={landingPath(permissions, isRegistered)} replace />;
}
