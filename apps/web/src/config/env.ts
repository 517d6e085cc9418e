/**
 * The one reader of build-time (import.meta.env) and run-time configuration.
 * Run-time values come from `<meta name="proam-config">`, which the server
 * fills per deployment so one build serves every environment.
 */
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

export const runtimeConfig: RuntimeConfig = parseRuntimeConfig(readMeta());

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
