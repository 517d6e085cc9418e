import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  NativeBuildEnvError,
  parseNativeBuildConfig,
  pickApiClient,
  readNativeBuildEnv,
} from '../native-build';
import { FALLBACK_CONFIG, mediaUrl, nativeRuntimeConfig } from '../env';
import type * as Env from '../env';
import { chatSocketUrl } from '@/features/chat/chat-socket';

const ENV = {
  PROAM_API_ORIGIN: 'https://api.example.jp',
  PROAM_API_CLIENT: 'ios:ios-secret-1,android:android-secret-2',
  PROAM_STRIPE_KEY: 'pk_test_123',
};

describe('native build variables (vite.config.ts, --mode native)', () => {
  it('reads the API origin, the clients and the Stripe key', () => {
    expect(readNativeBuildEnv(ENV)).toEqual({
      apiOrigin: 'https://api.example.jp',
      apiClients: ['ios:ios-secret-1', 'android:android-secret-2'],
      stripePublishableKey: 'pk_test_123',
    });
    // A trailing slash is still an origin; no key means 現地払い.
    expect(
      readNativeBuildEnv({
        PROAM_API_ORIGIN: 'https://api.example.jp/',
        PROAM_API_CLIENT: ' ios:ios-secret-1 ',
      }),
    ).toEqual({
      apiOrigin: 'https://api.example.jp',
      apiClients: ['ios:ios-secret-1'],
      stripePublishableKey: null,
    });
    // Plain http only on the loopback (the e2e test's server).
    expect(
      readNativeBuildEnv({ ...ENV, PROAM_API_ORIGIN: 'http://127.0.0.1:4100' })
        .apiOrigin,
    ).toBe('http://127.0.0.1:4100');
  });

  it('refuses to build with a missing or unsafe setting, naming the variable', () => {
    const fails = (env: Record<string, string | undefined>, variable: string) =>
      expect(() => readNativeBuildEnv(env)).toThrow(
        expect.objectContaining({
          message: expect.stringContaining(variable) as string,
        }) as Error,
      );
    fails({ ...ENV, PROAM_API_ORIGIN: undefined }, 'PROAM_API_ORIGIN');
    fails({ ...ENV, PROAM_API_ORIGIN: 'http://api.example.jp' }, 'https');
    fails({ ...ENV, PROAM_API_ORIGIN: 'https://api.example.jp/api' }, 'path');
    fails({ ...ENV, PROAM_API_CLIENT: undefined }, 'PROAM_API_CLIENT');
    fails({ ...ENV, PROAM_API_CLIENT: 'ios' }, 'PROAM_API_CLIENT');
    // The server wants codes of 8 characters or more.
    fails({ ...ENV, PROAM_API_CLIENT: 'ios:short' }, 'PROAM_API_CLIENT');
    fails({ ...ENV, PROAM_STRIPE_KEY: 'sk_live_oops' }, 'PROAM_STRIPE_KEY');
    expect(() => readNativeBuildEnv({})).toThrow(NativeBuildEnvError);
  });

  it('reads back what the build baked in, and nothing in a web build', () => {
    const baked = readNativeBuildEnv(ENV);
    expect(parseNativeBuildConfig(baked)).toEqual(baked);
    expect(parseNativeBuildConfig(JSON.stringify(baked))).toEqual(baked);
    expect(parseNativeBuildConfig(null)).toBeNull();
    expect(parseNativeBuildConfig(undefined)).toBeNull();
    expect(parseNativeBuildConfig('{oops')).toBeNull();
    expect(
      parseNativeBuildConfig({ ...baked, apiClients: ['no-colon'] }),
    ).toBeNull();
  });

  it('uses the client named after the platform, else the first', () => {
    const clients = ['ios:ios-secret-1', 'android:android-secret-2'];
    expect(pickApiClient(clients, 'android')).toBe('android:android-secret-2');
    expect(pickApiClient(clients, 'ios')).toBe('ios:ios-secret-1');
    expect(pickApiClient(clients, 'web')).toBe('ios:ios-secret-1');
  });
});

describe('native run-time configuration', () => {
  const build = readNativeBuildEnv(ENV);

  it('calls the API, its socket and its media at the API origin', () => {
    const config = nativeRuntimeConfig(build, 'android');
    expect(config).toEqual({
      ...FALLBACK_CONFIG,
      apiBase: 'https://api.example.jp/api',
      apiClient: 'android:android-secret-2',
      stripePublishableKey: 'pk_test_123',
    });
    expect(chatSocketUrl(config.apiBase)).toBe('wss://api.example.jp/api/ws');
    expect(mediaUrl('/media/users/u1/a.jpg', config)).toBe(
      'https://api.example.jp/media/users/u1/a.jpg',
    );
    // A CDN's absolute URL stays as it is.
    expect(mediaUrl('https://cdn.example.jp/users/u1/a.jpg', config)).toBe(
      'https://cdn.example.jp/users/u1/a.jpg',
    );
  });

  it('leaves media paths alone on the web, where the page shares the API origin', () => {
    expect(mediaUrl('/media/users/u1/a.jpg', FALLBACK_CONFIG)).toBe(
      '/media/users/u1/a.jpg',
    );
  });
});

/** Imports env.ts afresh while the page carries `content` as its proam-config meta tag, and checks it. */
const withMetaConfig = async (
  content: string,
  check: (env: typeof Env) => void,
) => {
  const meta = document.createElement('meta');
  meta.name = 'proam-config';
  meta.content = content;
  document.head.append(meta);
  try {
    vi.resetModules();
    check(await import('../env'));
  } finally {
    meta.remove();
  }
};

describe('env.ts in a native build', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('takes the baked-in values, not the meta tag, with the platform’s client', async () => {
    vi.stubEnv('PROAM_NATIVE_CONFIG', JSON.stringify(build()));
    vi.stubGlobal('Capacitor', { getPlatform: () => 'android' });
    await withMetaConfig(
      '{"apiBase":"/elsewhere","apiClient":"web:meta-code-1"}',
      (env) => {
        expect(env.isNativeBuild).toBe(true);
        expect(env.runtimeConfig.apiBase).toBe('https://api.example.jp/api');
        expect(env.runtimeConfig.apiClient).toBe('android:android-secret-2');
        expect(env.resolveApiBase()).toBe('https://api.example.jp/api');
        expect(env.paymentsEnabled()).toBe(true);
      },
    );
  });

  it('reads the meta tag in a web build', async () => {
    await withMetaConfig(
      '{"apiBase":"/api","apiClient":"web:meta-code-1"}',
      (env) => {
        expect(env.isNativeBuild).toBe(false);
        expect(env.runtimeConfig.apiClient).toBe('web:meta-code-1');
      },
    );
  });
});

function build() {
  return readNativeBuildEnv(ENV);
}
