import { CHARGE_TOKEN_STORAGE_KEY } from '../../../../contract/payments';

/**
 * The credit charge token (POST credits/create-token) lives in session storage (areas §7 "Credits"): it dies with the
 * tab, and a second payment within its life asks no password. The server is the judge of its age (ChargeTokenInvalid).
 */
export const chargeTokenStore = {
  read(): string | null {
    try {
      return sessionStorage.getItem(CHARGE_TOKEN_STORAGE_KEY);
    } catch {
      return null;
    }
  },
  write(token: string) {
    try {
      sessionStorage.setItem(CHARGE_TOKEN_STORAGE_KEY, token);
    } catch {
      // Storage refused: this payment still goes through with the token in hand; the next asks again.
    }
  },
  clear() {
    try {
      sessionStorage.removeItem(CHARGE_TOKEN_STORAGE_KEY);
    } catch {
      // Nothing kept, nothing to clear.
    }
  },
};
