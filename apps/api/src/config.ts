import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { API_ROOT } from './paths.js';

/** A setting that is present but unusable: the server refuses to start and names it. */
export class ConfigError extends Error {
  constructor(
    readonly setting: string,
    problem: string,
  ) {
    super(`Invalid configuration: ${setting} ${problem}`);
    this.name = 'ConfigError';
  }
}

export type ApiClient = { name: string; code: string };

export type Config = {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | null;
  /** Redis for state shared by instances (rate-limit counters); null keeps it in memory. */
  redisUrl: string | null;
  smtpUrl: string | null;
  mailFrom: string;
  apiClients: ApiClient[];
  jwtSecret: string;
  seedDemo: boolean | null;
  companyName: string;
  /** The operator's details for the 特定商取引法に基づく表記 and the legal pages. */
  companyAddress: string;
  companyPhone: string;
  companyRepresentative: string;
  companyMail: string;
  contactTo: string;
  mediaBaseUrl: string;
  /** STRIPE_PUBLISHABLE_KEY as set; the web app gets it only when `stripe` is on. */
  stripePublishableKey: string | null;
  /**
   * Online payment: on only when the secret key, the webhook signing secret
   * and the publishable key are all set; otherwise null (現地払い).
   */
  stripe: StripeConfig | null;
  /** With payments partly configured: the settings that are missing (the server warns and stays off). */
  stripeMissing: string[];
  /**
   * PUBLIC_URL: the origin members reach the web app at. It is the start of
   * every link the server writes for a person to open later: in mails (lesson
   * notices, reminders, payment and refund mails, an admin's verification
   * mail) and the punch-out StartPage. Never taken from the request's Host.
   * Unset: `http://HOST:PORT`, right only on the developer's own machine.
   */
  publicUrl: string | null;
  /**
   * Origins whose pages may call the API cross-origin: the native apps'
   * WebView origins (NATIVE_ORIGINS) always, plus CORS_ORIGINS. The web app
   * itself is same-origin and needs no entry.
   */
  corsOrigins: string[];
  trustProxy: boolean | string;
  logLevel: string;
  /**
   * Whether the API description (`/api/openapi.json`) is served: it lists every
   * route, the admin ones included, so production keeps it off (docs/security.md HD-07).
   */
  apiDocs: boolean;
  /**
   * How often the scheduled jobs look for work (the reminders from 18:00 Japan
   * time, the unread-chat digest); 0 runs them only when asked (tests).
   */
  jobIntervalMs: number;
  /** Event-loop delay (ms) beyond which requests are shed with 503; 0 turns shedding off. */
  shedDelayMs: number;
  /** Queries waiting for a PostgreSQL connection beyond which requests are shed with 503; 0 turns it off. */
  shedDbQueue: number;
  /** After SIGTERM: how long to keep serving (readyz already 503) before the listener closes. */
  shutdownGraceMs: number;
  /**
   * WEB_DIST: the folder of the built web app (`npm run build` writes
   * apps/web/dist, the default) that this server serves at `/`, filling the
   * page's run-time settings. Set it when the build lives elsewhere (an
   * image copying only the build); without an index.html there the server
   * serves the API alone and warns (tests, an API behind a separate web host).
   */
  webDist: string;
  /**
   * METRICS_TOKEN: when set, `GET /metrics` on the main port answers the
   * Prometheus metrics to `Authorization: Bearer <token>` (16+ characters).
   */
  metricsToken: string | null;
  /**
   * METRICS_PORT: when set, a second, plain listener on HOST:METRICS_PORT
   * serves only `GET /metrics`, no token (keep that port private). With
   * neither set, `/metrics` is a 404 like any unknown path.
   */
  metricsPort: number | null;
  /** Purchasing systems allowed to punch out: identity, shared secret, and where their users return. */
  punchoutBuyers: { identity: string; secret: string; returnOrigin: string }[];
  /** S3-compatible bucket for media; null keeps media under DATA_DIR/media. */
  s3: {
    bucket: string;
    region: string;
    endpoint: string | null;
    forcePathStyle: boolean;
    accessKeyId: string | null;
    secretAccessKey: string | null;
  } | null;
};

export type StripeConfig = {
  secretKey: string;
  webhookSecret: string;
  publishableKey: string;
  /** Where the server's Stripe client calls (a Stripe-compatible test server in tests). */
  apiBase: string;
};

type Env = Record<string, string | undefined>;

const nonEmpty = (env: Env, name: string): string | undefined => {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function parsePort(env: Env): number {
  const raw = nonEmpty(env, 'PORT');
  if (raw === undefined) return 3000;
  if (!/^\d+$/.test(raw) || Number(raw) > 65535)
    throw new ConfigError('PORT', `must be an integer 0-65535 (got "${raw}")`);
  return Number(raw);
}

function parseMetricsPort(env: Env, port: number): number | null {
  const raw = nonEmpty(env, 'METRICS_PORT');
  if (raw === undefined) return null;
  if (!/^\d+$/.test(raw) || Number(raw) > 65535)
    throw new ConfigError(
      'METRICS_PORT',
      `must be an integer 0-65535 (got "${raw}")`,
    );
  const n = Number(raw);
  if (n !== 0 && n === port)
    throw new ConfigError('METRICS_PORT', 'must differ from PORT');
  return n;
}

function parseMetricsToken(env: Env): string | null {
  const raw = nonEmpty(env, 'METRICS_TOKEN');
  if (raw === undefined) return null;
  // What a Bearer header can carry, and long enough not to be guessed.
  if (!/^[\x21-\x7e]{16,256}$/.test(raw))
    throw new ConfigError(
      'METRICS_TOKEN',
      'must be 16-256 printable characters without spaces',
    );
  return raw;
}

/** Where links written for a person open: PUBLIC_URL, else `http://HOST:PORT` (see `publicUrl`). */
export const appUrlOf = (
  config: Pick<Config, 'publicUrl' | 'host' | 'port'>,
): string => config.publicUrl ?? `http://${config.host}:${config.port}`;

/**
 * What the Capacitor WebViews send as Origin: iOS, and Android with its
 * default https scheme (Capacitor 6 and later). Plain http://localhost is
 * left out: any local web server would share it.
 */
export const NATIVE_ORIGINS = ['capacitor://localhost', 'https://localhost'];

/** CORS_ORIGINS adds to the native origins; it cannot take them away. */
function parseCorsOrigins(env: Env): string[] {
  const extra = (nonEmpty(env, 'CORS_ORIGINS') ?? '')
    .split(',')
    .map((s) => s.trim().replace(/\/+$/, ''))
    .filter(Boolean);
  for (const origin of extra)
    if (!/^[a-z][a-z0-9+.-]*:\/\/[^\s/?#]+$/i.test(origin))
      throw new ConfigError(
        'CORS_ORIGINS',
        `must be a comma-separated list of origins such as https://app.example.jp (got "${origin}")`,
      );
  return [...new Set([...NATIVE_ORIGINS, ...extra])];
}

function parseNonNegative(env: Env, name: string, fallback: number): number {
  const raw = nonEmpty(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw))
    throw new ConfigError(name, `must be a whole number (got "${raw}")`);
  return Number(raw);
}

function parseBool(env: Env, name: string): boolean | null {
  const raw = nonEmpty(env, name);
  if (raw === undefined) return null;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(name, `must be true or false (got "${raw}")`);
}

function parseUrl(env: Env, name: string, protocols: string[]): string | null {
  const raw = nonEmpty(env, name);
  if (raw === undefined) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, 'is not a valid URL');
  }
  if (!protocols.includes(url.protocol))
    throw new ConfigError(name, `must use ${protocols.join(' or ')}`);
  return raw;
}

/**
 * Online payment's three settings: each checked when present, and on only
 * when all three are; a partial set is reported, not refused (the server
 * still starts, paid at the course).
 */
function parseStripe(
  env: Env,
  publishableKey: string | null,
): { stripe: StripeConfig | null; missing: string[] } {
  const secretKey = nonEmpty(env, 'STRIPE_SECRET_KEY') ?? null;
  if (secretKey !== null && !/^sk_(test|live)_[A-Za-z0-9]+$/.test(secretKey))
    throw new ConfigError(
      'STRIPE_SECRET_KEY',
      'must be a secret key (sk_test_… or sk_live_…)',
    );
  const webhookSecret = nonEmpty(env, 'STRIPE_WEBHOOK_SECRET') ?? null;
  if (webhookSecret !== null && !/^whsec_[A-Za-z0-9]+$/.test(webhookSecret))
    throw new ConfigError(
      'STRIPE_WEBHOOK_SECRET',
      'must be a webhook signing secret (whsec_…)',
    );
  const apiBase =
    parseUrl(env, 'STRIPE_API_BASE', ['http:', 'https:']) ??
    'https://api.stripe.com';
  const given = {
    STRIPE_SECRET_KEY: secretKey,
    STRIPE_WEBHOOK_SECRET: webhookSecret,
    STRIPE_PUBLISHABLE_KEY: publishableKey,
  };
  const missing = Object.entries(given)
    .filter(([, v]) => v === null)
    .map(([k]) => k);
  if (secretKey && webhookSecret && publishableKey)
    return {
      stripe: { secretKey, webhookSecret, publishableKey, apiBase },
      missing: [],
    };
  // None set is the ordinary 現地払い mode; only a partial set is worth a warning.
  return { stripe: null, missing: missing.length === 3 ? [] : missing };
}

function parseClients(env: Env): ApiClient[] {
  const raw = nonEmpty(env, 'API_CLIENTS') ?? 'web:proam-web-dev';
  return raw.split(',').map((entry) => {
    const m = /^([A-Za-z0-9_.-]{1,64}):([\x21-\x7e]{8,256})$/.exec(
      entry.trim(),
    );
    if (!m)
      throw new ConfigError(
        'API_CLIENTS',
        'must be a comma-separated list of name:code (code 8+ printable characters)',
      );
    return { name: m[1]!, code: m[2]! };
  });
}

/** Development default: a random secret generated once and kept in DATA_DIR. */
function jwtSecret(env: Env, dataDir: string): string {
  const raw = nonEmpty(env, 'JWT_SECRET');
  if (raw !== undefined) {
    if (raw.length < 32)
      throw new ConfigError('JWT_SECRET', 'must be at least 32 characters');
    return raw;
  }
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export function loadConfig(env: Env = process.env): Config {
  const dataDir = path.resolve(nonEmpty(env, 'DATA_DIR') ?? './data');
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch {
    throw new ConfigError('DATA_DIR', `cannot be created (${dataDir})`);
  }
  const host = nonEmpty(env, 'HOST') ?? '127.0.0.1';
  const port = parsePort(env);
  const contactTo = nonEmpty(env, 'CONTACT_TO') ?? 'contact@example.jp';
  if (!EMAIL.test(contactTo))
    throw new ConfigError('CONTACT_TO', 'must be an e-mail address');
  const mailFrom =
    nonEmpty(env, 'MAIL_FROM') ?? 'ProAm Connect <no-reply@example.jp>';
  const mediaBaseUrl = nonEmpty(env, 'MEDIA_BASE_URL') ?? '/media/';
  if (!mediaBaseUrl.endsWith('/') || !/^(\/|https?:\/\/)/.test(mediaBaseUrl))
    throw new ConfigError(
      'MEDIA_BASE_URL',
      'must be an absolute path or http(s) URL ending with "/"',
    );
  const stripeKey = nonEmpty(env, 'STRIPE_PUBLISHABLE_KEY') ?? null;
  if (stripeKey !== null && !/^pk_(test|live)_[A-Za-z0-9]+$/.test(stripeKey))
    throw new ConfigError(
      'STRIPE_PUBLISHABLE_KEY',
      'must be a publishable key (pk_test_… or pk_live_…)',
    );
  const payments = parseStripe(env, stripeKey);
  const trust = nonEmpty(env, 'TRUST_PROXY');
  const logLevel = nonEmpty(env, 'LOG_LEVEL') ?? 'info';
  if (
    !['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(
      logLevel,
    )
  )
    throw new ConfigError(
      'LOG_LEVEL',
      `is not a log level (got "${logLevel}")`,
    );
  const companyName =
    nonEmpty(env, 'COMPANY_NAME') ?? '株式会社プロアム・コンサルティング';
  if (companyName.length > 100)
    throw new ConfigError('COMPANY_NAME', 'must be at most 100 characters');
  // Demo values until a deployment sets its own (they are shown on the legal pages).
  const companyAddress =
    nonEmpty(env, 'COMPANY_ADDRESS') ??
    '〒100-0005 東京都千代田区丸の内一丁目0番0号 プロアムビル5階';
  if (companyAddress.length > 200)
    throw new ConfigError('COMPANY_ADDRESS', 'must be at most 200 characters');
  const companyPhone = nonEmpty(env, 'COMPANY_PHONE') ?? '03-0000-0000';
  if (!/^\+?[0-9][0-9 ()-]{5,19}$/.test(companyPhone))
    throw new ConfigError(
      'COMPANY_PHONE',
      `must be a telephone number such as 03-1234-5678 (got "${companyPhone}")`,
    );
  const companyRepresentative =
    nonEmpty(env, 'COMPANY_REPRESENTATIVE') ?? '山田 太郎';
  if (companyRepresentative.length > 100)
    throw new ConfigError(
      'COMPANY_REPRESENTATIVE',
      'must be at most 100 characters',
    );
  const companyMail = nonEmpty(env, 'COMPANY_MAIL') ?? contactTo;
  if (!EMAIL.test(companyMail) || companyMail.length > 254)
    throw new ConfigError('COMPANY_MAIL', 'must be an e-mail address');

  const bucket = nonEmpty(env, 'S3_BUCKET');
  const s3 = bucket
    ? {
        bucket,
        region: nonEmpty(env, 'S3_REGION') ?? 'ap-northeast-1',
        endpoint: parseUrl(env, 'S3_ENDPOINT', ['http:', 'https:']),
        forcePathStyle: parseBool(env, 'S3_FORCE_PATH_STYLE') ?? false,
        accessKeyId: nonEmpty(env, 'S3_ACCESS_KEY_ID') ?? null,
        secretAccessKey: nonEmpty(env, 'S3_SECRET_ACCESS_KEY') ?? null,
      }
    : null;

  const punchoutBuyers = (nonEmpty(env, 'PUNCHOUT_BUYERS') ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
    .map((entry) => {
      const m =
        /^([A-Za-z0-9._-]{1,64}):([^\s,@]{12,256})@(https?:\/\/[^\s,/]+)$/.exec(
          entry,
        );
      if (!m)
        throw new ConfigError(
          'PUNCHOUT_BUYERS',
          'must be a comma-separated list of identity:sharedSecret@https://return-origin (secret 12+ characters)',
        );
      return {
        identity: m[1]!,
        secret: m[2]!,
        returnOrigin: new URL(m[3]!).origin,
      };
    });

  return {
    punchoutBuyers,
    s3,
    host,
    port,
    dataDir,
    databaseUrl: parseUrl(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    redisUrl: parseUrl(env, 'REDIS_URL', ['redis:', 'rediss:']),
    smtpUrl: parseUrl(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom,
    apiClients: parseClients(env),
    jwtSecret: jwtSecret(env, dataDir),
    seedDemo: parseBool(env, 'SEED_DEMO'),
    apiDocs:
      parseBool(env, 'API_DOCS') ?? nonEmpty(env, 'NODE_ENV') === 'development',
    companyName,
    companyAddress,
    companyPhone,
    companyRepresentative,
    companyMail,
    contactTo,
    mediaBaseUrl,
    stripePublishableKey: stripeKey,
    stripe: payments.stripe,
    stripeMissing: payments.missing,
    // Without a trailing slash: links are PUBLIC_URL + '/#/…'.
    publicUrl:
      parseUrl(env, 'PUBLIC_URL', ['http:', 'https:'])?.replace(/\/+$/, '') ??
      null,
    corsOrigins: parseCorsOrigins(env),
    trustProxy:
      trust === undefined
        ? false
        : trust === 'true'
          ? true
          : trust === 'false'
            ? false
            : trust,
    logLevel,
    jobIntervalMs: parseNonNegative(env, 'JOB_INTERVAL_MS', 60_000),
    shedDelayMs: parseNonNegative(env, 'SHED_EVENT_LOOP_DELAY_MS', 1000),
    shedDbQueue: parseNonNegative(env, 'SHED_DB_QUEUE', 200),
    shutdownGraceMs: parseNonNegative(env, 'SHUTDOWN_GRACE_MS', 1000),
    metricsToken: parseMetricsToken(env),
    metricsPort: parseMetricsPort(env, port),
    webDist: path.resolve(
      nonEmpty(env, 'WEB_DIST') ??
        path.join(API_ROOT, '..', 'web', 'dist'),
    ),
  };
}
