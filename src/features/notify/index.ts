export { NotifyPolling } from './NotifyPolling';
export { notifySounds, soundEnabled, type NotifyKind, type NotifySounds } from './sounds';
export { FEED_ACTIONS } from './feeds';
export { notifyPlan, bucketsWith, type FeedPlan } from './plan';
