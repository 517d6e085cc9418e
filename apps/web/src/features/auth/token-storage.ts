/**
 * Browser storage of the session (README.md, Web app: Storage keys). Only the
 * refresh token is kept; the access token lives in memory (the auth slice).
 * Storage can be unavailable (private modes, quotas): then the login simply
 * does not survive a reload.
 */
export const REFRESH_TOKEN_KEY = 'refresh_token';
export const CHECKIN_KEY = 'checkin';

const storage = (): Storage | null => {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
};

const read = (key: string): string | null => {
  try {
    return storage()?.getItem(key) ?? null;
  } catch {
    return null;
  }
};

export const readRefreshToken = (): string | null =>
  read(REFRESH_TOKEN_KEY) || null;

export const writeRefreshToken = (token: string): void => {
  try {
    storage()?.setItem(REFRESH_TOKEN_KEY, token);
  } catch {
    // Quota or privacy settings: the session still works until the page closes.
  }
};

export const removeRefreshToken = (): void => {
  try {
    storage()?.removeItem(REFRESH_TOKEN_KEY);
  } catch {
    // Nothing stored that could be read back either.
  }
};

/** The raw check-in JSON the check-in flow stores; parse with `parseCheckin`. */
export const readCheckinRaw = (): string | null => read(CHECKIN_KEY);

/**
 * The check-in record belongs to one buyer session (README.md, Web app:
 * Check-in): it goes with that session's logout, with any cleared login and
 * with any member login, so it can never turn a later member into a buyer.
 */
export const removeCheckinRecord = (): void => {
  try {
    storage()?.removeItem(CHECKIN_KEY);
  } catch {
    // Nothing stored that could be read back either.
  }
};
