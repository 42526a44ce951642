import type { Action } from '../../../contract/actions';
import type { Permissions } from '../../../contract/accounts';
import type { Group } from '../../../contract/domain';
import { FEED_ACTIONS } from './feeds';
import { notifySounds, type NotifyKind } from './sounds';

/** A feed the session runs: the group's sound, and the organisations where the account may act on its news. */
export interface FeedPlan {
  sound: string;
  buckets: number[];
}

/** The organisations (ids, ascending) where the account holds `action`. */
export function bucketsWith(permissions: Permissions | null, action: Action): number[] {
  if (!permissions) return [];
  return Object.entries(permissions)
    .filter(([, entry]) => entry.actions.includes(action))
    .map(([id]) => Number(id))
    .filter((id) => Number.isSafeInteger(id))
    .sort((a, b) => a - b);
}

/**
 * Which notification feeds a session runs, decided in this one place (issue 32): a feed needs its group sound
 * (./sounds.ts, core §4) and an organisation where the account holds the feed's action (FEED_ACTIONS). A feed the user
 * cannot act on is not polled at all: the registrar, who neither writes reports nor answers consultations, asks for
 * neither.
 */
export function notifyPlan(groups: readonly Group[], permissions: Permissions | null): Record<NotifyKind, FeedPlan | null> {
  const sounds = notifySounds(groups);
  const plan = (kind: NotifyKind): FeedPlan | null => {
    const sound = sounds[kind];
    const buckets = bucketsWith(permissions, FEED_ACTIONS[kind]);
    return sound && buckets.length > 0 ? { sound, buckets } : null;
  };
  return { exams: plan('exams'), consultations: plan('consultations') };
}
