export { useSession, useSessionSelector, can, statusOf, type Session, type SessionStatus } from './useSession';
export { navigate, refreshSession, sessionActor } from './instance';
export { registerModuleReset } from './moduleState';
export { loginUrl } from './controller';
