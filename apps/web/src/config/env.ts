import {
  parseNativeBuildConfig,
  pickApiClient,
  type NativeBuildConfig,
} from './native-build';

/**
 * The one reader of build-time (import.meta.env) and run-time configuration.
 * Run-time values come from `<meta name="proam-config">`, which the server
 * fills per deployment so one build serves every environment. A native
 * (Capacitor) build never receives that page: its values are baked in at
 * build time instead (native-build.ts, vite.config.ts).
 */

declare global {
  interface ImportMetaEnv {
    /** Defined by vite.config.ts: the native build's settings, null on the web. */
    readonly PROAM_NATIVE_CONFIG?: unknown;
  }
}

export type RuntimeConfig = {
  companyName: string;
  /** The operator's details on the legal pages (特定商取引法に基づく表記 and others). */
  companyAddress: string;
  companyPhone: string;
  companyRepresentative: string;
  companyMail: string;
  stripePublishableKey: string | null;
  apiBase: string;
  /** `name:code` of this app build for the client (Basic) calls of docs/api.md. */
  apiClient: string;
};

export const FALLBACK_CONFIG: RuntimeConfig = {
  companyName: '株式会社プロアム・コンサルティング',
  companyAddress: '〒100-0005 東京都千代田区丸の内一丁目0番0号 プロアムビル5階',
  companyPhone: '03-0000-0000',
  companyRepresentative: '山田 太郎',
  companyMail: 'contact@example.jp',
  stripePublishableKey: null,
  apiBase: '/api',
  // The development client; deployments hand their own in through the meta config.
  apiClient: 'web:proam-web-dev',
};

const PLACEHOLDER = '__PROAM_CONFIG__';

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const textOr = (v: unknown, fallback: string): string =>
  typeof v === 'string' && v.trim() !== '' ? v : fallback;

type CompanyKey =
  | 'companyName'
  | 'companyAddress'
  | 'companyPhone'
  | 'companyRepresentative'
  | 'companyMail';
const COMPANY_KEYS: readonly CompanyKey[] = [
  'companyName',
  'companyAddress',
  'companyPhone',
  'companyRepresentative',
  'companyMail',
];

export const parseRuntimeConfig = (
  raw: string | null | undefined,
): RuntimeConfig => {
  if (!raw || raw === PLACEHOLDER) return FALLBACK_CONFIG;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return FALLBACK_CONFIG;
  }
  if (!isRecord(parsed)) return FALLBACK_CONFIG;
  const { stripePublishableKey, apiBase, apiClient } = parsed;
  const company = Object.fromEntries(
    COMPANY_KEYS.map((k) => [k, textOr(parsed[k], FALLBACK_CONFIG[k])]),
  ) as Pick<RuntimeConfig, CompanyKey>;
  return {
    ...company,
    stripePublishableKey:
      typeof stripePublishableKey === 'string' && stripePublishableKey !== ''
        ? stripePublishableKey
        : null,
    apiBase:
      typeof apiBase === 'string' && apiBase !== ''
        ? apiBase.replace(/\/+$/, '')
        : FALLBACK_CONFIG.apiBase,
    apiClient:
      typeof apiClient === 'string' && /^[^:\s]+:\S+$/.test(apiClient)
        ? apiClient
        : FALLBACK_CONFIG.apiClient,
  };
};

const readMeta = (): string | null =>
  typeof document === 'undefined'
    ? null
    : (document.querySelector<HTMLMetaElement>('meta[name="proam-config"]')
        ?.content ?? null);

/**
 * A native build's configuration: the API at its own origin (the app's files
 * come from capacitor://localhost or https://localhost), the client of the
 * platform it runs on, the baked-in Stripe key; the company details are the
 * defaults, like a web page whose server fills none.
 */
export const nativeRuntimeConfig = (
  build: NativeBuildConfig,
  platform: string,
): RuntimeConfig => ({
  ...FALLBACK_CONFIG,
  stripePublishableKey: build.stripePublishableKey,
  apiBase: `${build.apiOrigin}/api`,
  apiClient: pickApiClient(build.apiClients, platform),
});

/** The native bridge defines window.Capacitor before the app's code runs. */
const nativePlatform = (): string => {
  if (typeof window === 'undefined') return 'web';
  const bridge = (window as { Capacitor?: { getPlatform?: () => string } })
    .Capacitor;
  return typeof bridge?.getPlatform === 'function'
    ? bridge.getPlatform()
    : 'web';
};

const nativeBuild: NativeBuildConfig | null = parseNativeBuildConfig(
  import.meta.env.PROAM_NATIVE_CONFIG,
);

/** Built for the Capacitor shell (`npm run cap:sync`), not for the web server. */
export const isNativeBuild: boolean = nativeBuild !== null;

export const runtimeConfig: RuntimeConfig = nativeBuild
  ? nativeRuntimeConfig(nativeBuild, nativePlatform())
  : parseRuntimeConfig(readMeta());

/**
 * The address of a media file as the API hands it (`MEDIA_BASE_URL` +
 * key). By default that is a path (`/media/…`) on the web page's own origin;
 * a native build's page is on the device, so paths go to the API's origin.
 * Absolute URLs (a CDN) stay as they are.
 */
export const mediaUrl = (
  url: string,
  config: Pick<RuntimeConfig, 'apiBase'> = runtimeConfig,
): string => {
  if (!url.startsWith('/') || url.startsWith('//')) return url;
  const base = /^https?:\/\//.test(config.apiBase) ? config.apiBase : null;
  return base ? new URL(url, base).href : url;
};

/**
 * Whether lessons are paid online (Stripe): only when the server hands a
 * publishable key. Otherwise the fee is paid at the course (現地払い), with no
 * system fee, and every page that speaks of fees must say so (API.md, Payments).
 */
export const paymentsEnabled = (
  config: Pick<RuntimeConfig, 'stripePublishableKey'> = runtimeConfig,
): boolean => config.stripePublishableKey !== null;

/**
 * fetch() needs an absolute URL outside a browser page (tests run on Node's
 * Request), so resolve the configured base against the current location.
 */
export const resolveApiBase = (
  base: string = runtimeConfig.apiBase,
): string => {
  const origin =
    typeof location === 'undefined' ? 'http://localhost/' : location.href;
  return new URL(base, origin).href.replace(/\/+$/, '');
};

export const isProduction: boolean = import.meta.env.PROD;

export const SITE_NAME = 'ProAm Connect';

/** The startup splash stays this long, counted from navigation start. */
export const SPLASH_MS = 1500;
