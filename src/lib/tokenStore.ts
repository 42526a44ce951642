import type { TokenInfo } from '../../contract/accounts';
import { STORAGE_KEYS } from '../../contract/constants';

/** The part of Web Storage the session needs; tests pass a Map-backed fake. */
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface TokenStore {
  read(): TokenInfo | null;
  write(token: TokenInfo): void;
  clear(): void;
}

/**
 * The browser keeps user-access-token and loginType (core §3). The expiry is kept beside them so a
 * reload can tell a live token from a dead one before asking the server.
 */
export function createTokenStore(storage: KeyValueStorage): TokenStore {
  const safe = <T>(fn: () => T, fallback: T): T => {
    try {
      return fn();
    } catch {
      // Storage can throw (quota, privacy modes); the session then simply lives in memory only.
      return fallback;
    }
  };
  return {
    read() {
      return safe(() => {
        const accessToken = storage.getItem(STORAGE_KEYS.accessToken);
        if (!accessToken) return null;
        const rawExpires = storage.getItem(STORAGE_KEYS.accessTokenExpires);
        const expires = rawExpires === null || rawExpires === '' ? Number.NaN : Number(rawExpires);
        const loginType = storage.getItem(STORAGE_KEYS.loginType) === 'scan' ? 'scan' : 'normal';
        // A missing expiry is kept as 0 = "absent" (core §4: absent expiry still counts as authenticated).
        return { accessToken, expires: Number.isFinite(expires) ? expires : 0, loginType };
      }, null);
    },
    write(token) {
      safe(() => {
        storage.setItem(STORAGE_KEYS.accessToken, token.accessToken);
        storage.setItem(STORAGE_KEYS.loginType, token.loginType);
        if (token.expires > 0) storage.setItem(STORAGE_KEYS.accessTokenExpires, String(token.expires));
        else storage.removeItem(STORAGE_KEYS.accessTokenExpires);
      }, undefined);
    },
    clear() {
      safe(() => {
        storage.removeItem(STORAGE_KEYS.accessToken);
        storage.removeItem(STORAGE_KEYS.accessTokenExpires);
        storage.removeItem(STORAGE_KEYS.loginType);
      }, undefined);
    },
  };
}
