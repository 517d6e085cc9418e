/**
 * The one reader of build-time (import.meta.env) and run-time configuration.
 * Run-time values come from `<meta name="proam-config">`, which the server
 * fills per deployment so one build serves every environment.
 */
export type RuntimeConfig = {
  companyName: string;
  stripePublishableKey: string | null;
  apiBase: string;
  /** `name:code` of this app build for the client (Basic) calls of docs/api.md. */
  apiClient: string;
};

export const FALLBACK_CONFIG: RuntimeConfig = {
  companyName: '株式会社プロアム・コンサルティング',
  stripePublishableKey: null,
  apiBase: '/api',
  // The development client; deployments hand their own in through the meta config.
  apiClient: 'web:proam-web-dev',
};

const PLACEHOLDER = '__PROAM_CONFIG__';

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

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
  const { companyName, stripePublishableKey, apiBase, apiClient } = parsed;
  return {
    companyName:
      typeof companyName === 'string' && companyName.trim() !== ''
        ? companyName
        : FALLBACK_CONFIG.companyName,
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

export const runtimeConfig: RuntimeConfig = parseRuntimeConfig(readMeta());

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
