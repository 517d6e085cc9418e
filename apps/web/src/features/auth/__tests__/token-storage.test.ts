import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLoginResult } from '@/testing/auth';

/** The Keychain/Keystore as the plugin shows it: a map behind async calls. */
const keychain = vi.hoisted(() => {
  const items = new Map<string, string>();
  return {
    items,
    native: { value: true },
    failSet: { value: false },
    get: vi.fn((key: string) => Promise.resolve(items.get(key) ?? null)),
    set: vi.fn((key: string, value: string) => {
      if (keychain.failSet.value) return Promise.reject(new Error('osError'));
      items.set(key, value);
      return Promise.resolve();
    }),
    remove: vi.fn((key: string) => Promise.resolve(items.delete(key))),
  };
});

vi.mock('@capacitor/core', () => ({
  Capacitor: { isNativePlatform: () => keychain.native.value },
}));
vi.mock('@aparajita/capacitor-secure-storage', () => ({
  KeychainAccess: { whenUnlockedThisDeviceOnly: 1 },
  SecureStorage: {
    get: keychain.get,
    set: keychain.set,
    remove: keychain.remove,
  },
}));

/** Fresh modules: token-storage keeps which storage it uses in module state. */
const load = async () => {
  vi.resetModules();
  return import('../token-storage');
};

beforeEach(() => {
  localStorage.clear();
  keychain.items.clear();
  keychain.native.value = true;
  keychain.failSet.value = false;
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('token storage on the web', () => {
  it('keeps the refresh token in localStorage and never loads the plugin', async () => {
    const ts = await load();
    await ts.loadRefreshToken();
    ts.writeRefreshToken('r-web');
    expect(localStorage.getItem('refresh_token')).toBe('r-web');
    expect(ts.readRefreshToken()).toBe('r-web');
    ts.removeRefreshToken();
    expect(localStorage.getItem('refresh_token')).toBeNull();
    expect(ts.readRefreshToken()).toBeNull();
    expect(keychain.get).not.toHaveBeenCalled();
    expect(keychain.set).not.toHaveBeenCalled();
  });

  it('stays on localStorage in a browser that merely has window.Capacitor', async () => {
    vi.stubGlobal('Capacitor', {});
    keychain.native.value = false;
    const ts = await load();
    await ts.loadRefreshToken();
    ts.writeRefreshToken('r-web');
    expect(localStorage.getItem('refresh_token')).toBe('r-web');
    expect(keychain.set).not.toHaveBeenCalled();
  });
});

describe('token storage in the native shell', () => {
  beforeEach(() => {
    vi.stubGlobal('Capacitor', {});
  });

  it('reads the stored token from the keychain at start and writes there, never to localStorage', async () => {
    keychain.items.set('refresh_token', 'r-saved');
    const ts = await load();
    expect(ts.readRefreshToken()).toBeNull();
    await ts.loadRefreshToken();
    expect(ts.readRefreshToken()).toBe('r-saved');

    ts.writeRefreshToken('r-next');
    // Reads answer at once from memory; the keychain follows.
    expect(ts.readRefreshToken()).toBe('r-next');
    await ts.refreshTokenWritten();
    expect(keychain.items.get('refresh_token')).toBe('r-next');
    expect(keychain.set).toHaveBeenLastCalledWith(
      'refresh_token',
      'r-next',
      false,
      false,
      1,
    );
    expect(localStorage.getItem('refresh_token')).toBeNull();

    ts.removeRefreshToken();
    expect(ts.readRefreshToken()).toBeNull();
    await ts.refreshTokenWritten();
    expect(keychain.items.has('refresh_token')).toBe(false);
  });

  it('applies writes in order, so the last one wins', async () => {
    const ts = await load();
    await ts.loadRefreshToken();
    ts.writeRefreshToken('r-1');
    ts.removeRefreshToken();
    ts.writeRefreshToken('r-2');
    await ts.refreshTokenWritten();
    expect(keychain.items.get('refresh_token')).toBe('r-2');
  });

  it('moves a token an older build left in localStorage into the keychain', async () => {
    localStorage.setItem('refresh_token', 'r-legacy');
    const ts = await load();
    await ts.loadRefreshToken();
    expect(ts.readRefreshToken()).toBe('r-legacy');
    expect(localStorage.getItem('refresh_token')).toBeNull();
    await ts.refreshTokenWritten();
    expect(keychain.items.get('refresh_token')).toBe('r-legacy');
  });

  it('keeps the session in memory when the keychain refuses a write', async () => {
    keychain.failSet.value = true;
    const ts = await load();
    await ts.loadRefreshToken();
    ts.writeRefreshToken('r-1');
    await ts.refreshTokenWritten();
    expect(ts.readRefreshToken()).toBe('r-1');
    expect(localStorage.getItem('refresh_token')).toBeNull();
  });

  it('starts the store restoring from the keychain, and the session writes go there', async () => {
    keychain.items.set('refresh_token', 'r-saved');
    vi.resetModules();
    // auth-slice awaits the keychain before the store can exist.
    const { makeStore } = await import('@/app/store');
    const { tokenReceived, loggedOut } = await import('../auth-slice');
    const ts = await import('../token-storage');
    const store = makeStore();
    expect(store.getState().auth.status).toBe('restoring');

    store.dispatch(tokenReceived(createLoginResult({ refreshToken: 'r-new' })));
    await ts.refreshTokenWritten();
    expect(keychain.items.get('refresh_token')).toBe('r-new');
    expect(localStorage.getItem('refresh_token')).toBeNull();

    store.dispatch(loggedOut());
    await ts.refreshTokenWritten();
    expect(keychain.items.has('refresh_token')).toBe(false);
  });
});
