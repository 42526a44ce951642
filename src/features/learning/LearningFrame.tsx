import type { ReactNode } from 'react';
import { CommandScope } from '@/lib/commands';
import { statusOf, useSessionSelector, type SessionStatus } from '@/lib/session';
import { PublicFrame } from '@/ui/PublicFrame';

const SIGNED_OUT: readonly SessionStatus[] = ['signedOut', 'loggedOut', 'signingIn'];

/** Whether the shell (navbar, palette, key bindings) is around: the route's 'auto' layout takes it when signed in. */
export function useHasShell(): boolean {
  return !SIGNED_OUT.includes(useSessionSelector(statusOf));
}

/**
 * The learning screens' frame: inside the shell when signed in; signed out, the public frame (domain name, language,
 * theme), which also binds the command keys the shell would. Either way the 'learning' scope is active.
 */
export function LearningFrame({ title, children }: { title: string; children: ReactNode }) {
  const shell = useHasShell();
  const body = <CommandScope scope="learning">{children}</CommandScope>;
  if (shell) return <div className="mx-auto flex w-full max-w-6xl flex-col px-6 py-5">{body}</div>;
  return <PublicFrame title={title} wide><div className="mx-auto flex w-full max-w-6xl flex-col px-6 py-5">{body}</div></PublicFrame>;
}
