/**
 * Storage of the session (README.md, Web app: Storage keys). Only the refresh
 * token is kept; the access token lives in memory (the auth slice).
 *
 * On the web the token sits in localStorage. Inside the Capacitor shell it
 * goes to the platform's secure storage (iOS Keychain, Android Keystore,
 * through @aparajita/capacitor-secure-storage), never to the WebView's
 * localStorage, which any script in the page and any backup can read. That
 * storage answers asynchronously, so the token is read once at start
 * (`loadRefreshToken`, awaited before the store exists) and kept in memory;
 * reads stay synchronous and writes reach the secure storage in order.
 *
 * Storage can be unavailable (private modes, quotas, a failing keychain): then
 * the login simply does not survive a reload.
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

const removeLocal = (key: string): void => {
  try {
    storage()?.removeItem(key);
  } catch {
    // Nothing stored that could be read back either.
  }
};

/** The part of the secure-storage plugin this file uses. */
export type SecureStore = {
  get: (key: string) => Promise<string | null>;
  set: (key: string, value: string) => Promise<void>;
  remove: (key: string) => Promise<void>;
};

/**
 * The Keychain/Keystore inside the native shell, null on the web. The plugin
 * and @capacitor/core load only inside the shell (the bridge defines
 * window.Capacitor before the app runs), so web visitors never fetch them.
 */
const openSecureStore = async (): Promise<SecureStore | null> => {
  if (typeof window === 'undefined' || !('Capacitor' in window)) return null;
  const [{ Capacitor }, { SecureStorage, KeychainAccess }] = await Promise.all([
    import('@capacitor/core'),
    import('@aparajita/capacitor-secure-storage'),
  ]);
  if (!Capacitor.isNativePlatform()) return null;
  return {
    get: async (key) => {
      const value = await SecureStorage.get(key, false, false);
      return typeof value === 'string' && value !== '' ? value : null;
    },
    // Not synchronised to iCloud, not restored onto another device.
    set: (key, value) =>
      SecureStorage.set(
        key,
        value,
        false,
        false,
        KeychainAccess.whenUnlockedThisDeviceOnly,
      ),
    remove: async (key) => {
      await SecureStorage.remove(key, false);
    },
  };
};

type Backend =
  | { kind: 'local' }
  /** Native: `store` null when the secure storage failed (memory only). */
  | { kind: 'secure'; store: SecureStore | null };

let backend: Backend = { kind: 'local' };
/** The native token, mirrored in memory so reads stay synchronous. */
let nativeToken: string | null = null;
/** Writes to the secure storage, chained so the last one wins. */
let pending: Promise<void> = Promise.resolve();
let loading: Promise<void> | null = null;

const persist = (op: (store: SecureStore) => Promise<void>): void => {
  if (backend.kind !== 'secure' || !backend.store) return;
  const { store } = backend;
  pending = pending
    .then(() => op(store))
    .catch(() => {
      // The keychain refused: the session still works until the app closes.
    });
};

/**
 * Reads the native token into memory, once; resolves at once on the web.
 * A token an older build left in the WebView's localStorage moves to the
 * secure storage and leaves localStorage.
 */
export const loadRefreshToken = (
  open: () => Promise<SecureStore | null> = openSecureStore,
): Promise<void> =>
  (loading ??= (async () => {
    let store: SecureStore | null;
    try {
      store = await open();
    } catch {
      // Inside the shell but the plugin did not load: keep the token in
      // memory rather than fall back to the WebView's storage.
      backend = { kind: 'secure', store: null };
      return;
    }
    if (!store) return;
    backend = { kind: 'secure', store };
    const legacy = read(REFRESH_TOKEN_KEY) || null;
    let saved: string | null = null;
    try {
      saved = await store.get(REFRESH_TOKEN_KEY);
    } catch {
      // Unreadable: as if nothing were stored.
    }
    nativeToken = saved ?? legacy;
    if (legacy) {
      if (!saved) persist((s) => s.set(REFRESH_TOKEN_KEY, legacy));
      removeLocal(REFRESH_TOKEN_KEY);
    }
  })());

/** Resolves once every write so far has reached the secure storage. */
export const refreshTokenWritten = (): Promise<void> => pending;

export const readRefreshToken = (): string | null =>
  backend.kind === 'secure' ? nativeToken : read(REFRESH_TOKEN_KEY) || null;

export const writeRefreshToken = (token: string): void => {
  if (backend.kind === 'secure') {
    nativeToken = token;
    persist((s) => s.set(REFRESH_TOKEN_KEY, token));
    return;
  }
  try {
    storage()?.setItem(REFRESH_TOKEN_KEY, token);
  } catch {
    // Quota or privacy settings: the session still works until the page closes.
  }
};

export const removeRefreshToken = (): void => {
  if (backend.kind === 'secure') {
    nativeToken = null;
    persist((s) => s.remove(REFRESH_TOKEN_KEY));
    return;
  }
  removeLocal(REFRESH_TOKEN_KEY);
};

/** The raw check-in JSON the check-in flow stores; parse with `parseCheckin`. */
export const readCheckinRaw = (): string | null => read(CHECKIN_KEY);

/**
 * The check-in record belongs to one buyer session (README.md, Web app:
 * Check-in): it goes with that session's logout, with any cleared login and
 * with any member login, so it can never turn a later member into a buyer.
 */
export const removeCheckinRecord = (): void => removeLocal(CHECKIN_KEY);
