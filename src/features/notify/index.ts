export { NotifyPolling } from './NotifyPolling';
export { notifySounds, soundEnabled, type NotifyKind, type NotifySounds } from './sounds';
