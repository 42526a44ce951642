import { useSelector } from '@xstate/react';
import { useCallback, useMemo } from 'react';
import type { Permissions, User } from '../../../contract/accounts';
import type { Action } from '../../../contract/actions';
import type { DomainInfo, Group } from '../../../contract/domain';
import { useDomain } from './domain';
import { navigate, sessionActor } from './instance';

export type SessionStatus =
  | 'signedOut' | 'signingIn' | 'loading' | 'failed' | 'ready' | 'expired' | 'reLogin' | 'loggingOut' | 'loggedOut';

type Snapshot = ReturnType<ReturnType<typeof sessionActor>['getSnapshot']>;

export function statusOf(snapshot: Snapshot): SessionStatus {
  if (snapshot.matches({ signedIn: 'loading' }) || snapshot.matches('restoring')) return 'loading';
  if (snapshot.matches({ signedIn: 'ready' }) || snapshot.matches({ signedIn: 'refreshing' })) return 'ready';
  if (snapshot.matches({ signedIn: 'failed' })) return 'failed';
  if (snapshot.matches('expired')) return 'expired';
  return snapshot.value as SessionStatus;
}

/** True when a permitted action exists in the bucket, or in any bucket when none is named. */
export function can(permissions: Permissions | null, action: Action, bucketId?: number | string): boolean {
  if (!permissions) return false;
  if (bucketId !== undefined) return permissions[String(bucketId)]?.actions.includes(action) ?? false;
  return Object.values(permissions).some((entry) => entry.actions.includes(action));
}

export interface Session {
  status: SessionStatus;
  user: User | null;
  permissions: Permissions | null;
  groups: Group[];
  domain: DomainInfo | null;
  /** The client only hides what is not allowed; the server decides. */
  can: (action: Action, bucketId?: number | string) => boolean;
  logout: () => void;
  navigate: typeof navigate;
}

export function useSessionSelector<T>(selector: (snapshot: Snapshot) => T): T {
  return useSelector(sessionActor(), selector);
}

/** The signed-in account, its permissions and groups, the domain, and the session's two verbs. */
export function useSession(): Session {
  const status = useSessionSelector(statusOf);
  const user = useSessionSelector((s) => s.context.user);
  const permissions = useSessionSelector((s) => s.context.permissions);
  const groups = useSessionSelector((s) => s.context.groups);
  const domain = useDomain();
  const canDo = useCallback((action: Action, bucketId?: number | string) => can(permissions, action, bucketId), [permissions]);
  const logout = useCallback(() => sessionActor().send({ type: 'LOGOUT' }), []);
  return useMemo(
    () => ({ status, user, permissions, groups: groups ?? [], domain, can: canDo, logout, navigate }),
    [status, user, permissions, groups, domain, canDo, logout],
  );
}
