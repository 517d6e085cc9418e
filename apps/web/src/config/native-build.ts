/**
 * Configuration of the native (Capacitor) builds. The server fills the web
 * page's `<meta name="proam-config">`, but a native shell loads its files from
 * the device and never sees that page, so its settings are baked in at build
 * time (`npm run cap:sync`, README.md, Native apps). vite.config.ts reads the
 * variables with `readNativeBuildEnv` and hands the result to the app, where
 * src/config/env.ts turns it into the run-time configuration.
 *
 * No `import.meta` here: vite.config.ts imports this file under Node.
 */
export type NativeBuildConfig = {
  /** Where the API lives, e.g. `https://api.example.jp` (no path). */
  apiOrigin: string;
  /**
   * `name:code` clients of docs/api.md, one per platform (`ios:…`,
   * `android:…`); the app uses the one named after its platform.
   */
  apiClients: readonly string[];
  stripePublishableKey: string | null;
};

/** As the server's API_CLIENTS accepts them (apps/api/src/config.ts). */
const CLIENT = /^[A-Za-z0-9_.-]{1,64}:[\x21-\x2b\x2d-\x7e]{8,256}$/;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Thrown at build time: the message names the variable to fix. */
export class NativeBuildEnvError extends Error {}

/**
 * PROAM_API_ORIGIN (required; https, or http on a loopback host for tests),
 * PROAM_API_CLIENT (required; `ios:code`, `android:code` or both separated by
 * a comma) and PROAM_STRIPE_KEY (optional; without it lessons are paid at the
 * course, as on a web deployment without a key).
 */
export const readNativeBuildEnv = (
  env: Readonly<Record<string, string | undefined>>,
): NativeBuildConfig => {
  const rawOrigin = env.PROAM_API_ORIGIN?.trim() ?? '';
  let origin: URL;
  try {
    origin = new URL(rawOrigin);
  } catch {
    throw new NativeBuildEnvError(
      `PROAM_API_ORIGIN must be the API's origin, e.g. https://api.example.jp (got "${rawOrigin}")`,
    );
  }
  const secure =
    origin.protocol === 'https:' ||
    (origin.protocol === 'http:' && LOOPBACK.has(origin.hostname));
  if (!secure || origin.pathname !== '/' || origin.search || origin.hash)
    throw new NativeBuildEnvError(
      `PROAM_API_ORIGIN must be an https:// origin without a path (http:// only for localhost), got "${rawOrigin}"`,
    );

  const apiClients = (env.PROAM_API_CLIENT ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '');
  if (apiClients.length === 0 || !apiClients.every((c) => CLIENT.test(c)))
    throw new NativeBuildEnvError(
      'PROAM_API_CLIENT must be name:code with a code of 8+ characters (e.g. ios:… or android:…, as listed in the server’s API_CLIENTS), several separated by commas',
    );

  const stripe = env.PROAM_STRIPE_KEY?.trim() ?? '';
  if (stripe !== '' && !stripe.startsWith('pk_'))
    throw new NativeBuildEnvError(
      'PROAM_STRIPE_KEY must be a Stripe publishable key (pk_…), never a secret key',
    );

  return {
    apiOrigin: origin.origin,
    apiClients,
    stripePublishableKey: stripe === '' ? null : stripe,
  };
};

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const fromJson = (value: string): unknown => {
  try {
    return JSON.parse(value);
  } catch {
    return null;
  }
};

/**
 * The value vite.config.ts baked in (an object; JSON text where an
 * environment can only hold strings, as in tests), or null in a web build.
 */
export const parseNativeBuildConfig = (
  baked: unknown,
): NativeBuildConfig | null => {
  const value = typeof baked === 'string' ? fromJson(baked) : baked;
  if (!isRecord(value)) return null;
  const { apiOrigin, apiClients, stripePublishableKey } = value;
  if (typeof apiOrigin !== 'string' || apiOrigin === '') return null;
  if (
    !Array.isArray(apiClients) ||
    apiClients.length === 0 ||
    !apiClients.every(
      (c): c is string => typeof c === 'string' && CLIENT.test(c),
    )
  )
    return null;
  return {
    apiOrigin,
    apiClients,
    stripePublishableKey:
      typeof stripePublishableKey === 'string' && stripePublishableKey !== ''
        ? stripePublishableKey
        : null,
  };
};

/**
 * The client of this platform (`ios` on iOS, `android` on Android); the first
 * one when none is named after it (a single-client build, or a browser).
 */
export const pickApiClient = (
  clients: readonly string[],
  platform: string,
): string =>
  clients.find((c) => c.slice(0, c.indexOf(':')) === platform) ?? clients[0]!;
