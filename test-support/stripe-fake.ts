/**
 * A local stand-in for the part of Stripe's REST API that ProAm Connect uses,
 * in the spirit of s3rver for S3: a node:http server the official `stripe`
 * library can talk to (`new Stripe(key, { host, port, protocol: 'http' })`),
 * so no test reaches the internet.
 *
 * Speaks the v1 wire format: form-encoded bodies with bracket notation
 * (`metadata[reservationId]=…`), Bearer (or Basic) secret-key auth, the
 * `Idempotency-Key` header, and Stripe's error JSON (`{ error: { type, code,
 * message, param, … } }`). Endpoints:
 *
 * - POST /v1/payment_intents, GET /v1/payment_intents/:id,
 *   POST /v1/payment_intents/:id/cancel
 * - POST /v1/refunds, GET /v1/refunds/:id
 * - GET /v1/charges/:id (the charge `succeed()` creates)
 *
 * What Stripe's dashboard or Stripe.js would do happens through test-side
 * controls: `succeed()` and `fail()` settle a PaymentIntent as a customer's
 * payment would, and each state change (including refunds and cancels made
 * through the API) is sent to `webhookUrl` as a signed event, exactly as
 * Stripe signs it (`Stripe-Signature: t=<unix>,v1=<HMAC-SHA256 hex of
 * "<t>.<payload>">`). `signPayload()` and `sendEvent()` make bad, old and
 * replayed deliveries. `failNextRefunds()` (or `failNext()`) makes the next
 * requests fail the way Stripe fails them, for retry logic. Events caused by
 * an API request are sent after its response is written; `settled()` waits
 * for deliveries in flight. Everything the fake saw and did is in `state`.
 *
 * `url` (`http://127.0.0.1:<port>`) is what STRIPE_API_BASE should hold; the
 * server turns it into the library's `host`, `port` and `protocol` options.
 *
 * Objects are typed with the `stripe` package's own types (type-only import,
 * erased at run time), so `tsc` checks the shapes against the library.
 *
 * Known simplifications: one account and one secret key; no confirmation
 * flow (use `succeed()`/`fail()`); refunds are synchronous and always
 * `succeeded`; only successful responses are kept for idempotent replay
 * (Stripe also replays errors raised after a request started executing, but
 * an injected failure here is one that happened before, so a retry with the
 * same key gets through); webhook deliveries are not retried automatically.
 */
import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type Stripe from 'stripe';

const HOST = '127.0.0.1';

/**
 * The API version this fake reports (events' `api_version`, the
 * `Stripe-Version` response header when the request sent none). Typed as the
 * installed library's latest version, so upgrading `stripe` flags this line.
 */
export const FAKE_API_VERSION: Stripe.LatestApiVersion = '2026-10-28.endive';

// ---------------------------------------------------------------------------
// Signing

/**
 * The `Stripe-Signature` header Stripe sends with a webhook:
 * `t=<timestamp>,v1=<hex HMAC-SHA256 of "<timestamp>.<payload>" keyed with the
 * endpoint's signing secret>`. `timestamp` is in Unix seconds (default now).
 * Pass another secret, an old timestamp or a different payload to make a
 * delivery that verification must reject.
 */
export function signPayload(
  payload: string,
  secret: string,
  timestamp: number = Math.floor(Date.now() / 1000),
): string {
  const t = Math.floor(timestamp);
  const v1 = createHmac('sha256', secret)
    .update(`${t}.${payload}`, 'utf8')
    .digest('hex');
  return `t=${t},v1=${v1}`;
}

// ---------------------------------------------------------------------------
// Form bodies (Stripe's v1 encoding)

/** A decoded form value: `a=1`, `a[b]=1`, `a[]=1` / `a[0]=1`. */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormParams = { [key: string]: FormValue };

type FormObject = { [key: string]: FormValue };

const isFormObject = (v: FormValue | undefined): v is FormObject =>
  typeof v === 'object' && !Array.isArray(v);

const decodeComponent = (s: string) =>
  decodeURIComponent(s.replace(/\+/g, ' '));

/** `a[b][]` → `['a', 'b', '']`. */
function keyPath(key: string): string[] {
  const first = key.indexOf('[');
  if (first <= 0 || !key.endsWith(']')) return [key];
  const rest = key.slice(first + 1, -1).split('][');
  return [key.slice(0, first), ...rest];
}

/** Objects whose keys are exactly 0…n-1 become arrays (`a[0]=x&a[1]=y`). */
function arraysFromIndices(
  value: FormValue,
  underMetadata: boolean,
): FormValue {
  if (typeof value === 'string') return value;
  if (Array.isArray(value))
    return value.map((v) => arraysFromIndices(v, false));
  const out: FormObject = {};
  for (const [k, v] of Object.entries(value))
    out[k] = underMetadata ? v : arraysFromIndices(v, k === 'metadata');
  const keys = Object.keys(out);
  if (
    !underMetadata &&
    keys.length > 0 &&
    keys.every((k, i) => k === String(i))
  ) {
    return keys.map((k) => out[k] as FormValue);
  }
  return out;
}

/**
 * Decodes `application/x-www-form-urlencoded` with Stripe's bracket notation
 * into nested objects and arrays. Every leaf is a string, as on the wire.
 */
export function parseStripeForm(body: string): FormParams {
  const root: FormObject = {};
  for (const pair of body.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawKey = eq === -1 ? pair : pair.slice(0, eq);
    const value = eq === -1 ? '' : decodeComponent(pair.slice(eq + 1));
    const path = keyPath(decodeComponent(rawKey));
    let node: FormObject = root;
    path.forEach((segment, i) => {
      const last = i === path.length - 1;
      // `a[]` appends: use the next free index.
      const key = segment === '' ? String(Object.keys(node).length) : segment;
      if (last) {
        node[key] = value;
        return;
      }
      const existing = node[key];
      if (isFormObject(existing)) {
        node = existing;
      } else {
        const child: FormObject = {};
        node[key] = child;
        node = child;
      }
    });
  }
  const out: FormParams = {};
  for (const [k, v] of Object.entries(root))
    out[k] = arraysFromIndices(v, k === 'metadata');
  return out;
}

/** JSON with sorted keys: two requests with the same params compare equal. */
function canonical(value: FormValue): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys
    .map((k) => `${JSON.stringify(k)}:${canonical(value[k] as FormValue)}`)
    .join(',')}}`;
}

// ---------------------------------------------------------------------------
// Errors

/** The `error` member of Stripe's error responses. */
export type StripeErrorBody = {
  type:
    'api_error' | 'card_error' | 'idempotency_error' | 'invalid_request_error';
  message: string;
  code?: string;
  decline_code?: string;
  param?: string;
  doc_url?: string;
  request_log_url?: string;
  charge?: string;
  payment_intent?: Stripe.PaymentIntent;
};

class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly error: StripeErrorBody,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(error.message);
  }
}

const docUrl = (code: string) =>
  `https://docs.stripe.com/error-codes/${code.replace(/_/g, '-')}`;

function invalid(
  message: string,
  extra: { code?: string; param?: string; status?: number } = {},
): ApiFailure {
  const { status = 400, code, param } = extra;
  return new ApiFailure(status, {
    type: 'invalid_request_error',
    message,
    ...(code ? { code, doc_url: docUrl(code) } : {}),
    ...(param ? { param } : {}),
  });
}

const missingResource = (kind: string, id: string) =>
  invalid(`No such ${kind}: '${id}'`, {
    status: 404,
    code: 'resource_missing',
    param: 'id',
  });

/** Failures `failNext()` can inject, each as Stripe returns it. */
export type InjectedFailure =
  /** 400 invalid_request_error `balance_insufficient` (a refund the balance cannot cover). */
  | 'invalid_request'
  /** 402 card_error `card_declined`. */
  | 'card_error'
  /** 429 `rate_limit` (the library does not retry it on its own). */
  | 'rate_limit'
  /** 500 api_error (the library retries it, with the same idempotency key, when `maxNetworkRetries` > 0). */
  | 'api_error';

function injected(kind: InjectedFailure): ApiFailure {
  switch (kind) {
    case 'invalid_request':
      return new ApiFailure(
        400,
        {
          type: 'invalid_request_error',
          code: 'balance_insufficient',
          doc_url: docUrl('balance_insufficient'),
          message:
            'You have insufficient funds in your Stripe account for this refund. Your card balance is too low. You can use the /v1/balance endpoint to view your Stripe balance (for more details, see stripe.com/docs/api#balance).',
        },
        { 'Stripe-Should-Retry': 'false' },
      );
    case 'card_error':
      return new ApiFailure(
        402,
        {
          type: 'card_error',
          code: 'card_declined',
          decline_code: 'generic_decline',
          doc_url: docUrl('card_declined'),
          message: 'Your card was declined.',
        },
        { 'Stripe-Should-Retry': 'false' },
      );
    case 'rate_limit':
      return new ApiFailure(429, {
        type: 'invalid_request_error',
        code: 'rate_limit',
        doc_url: docUrl('rate_limit'),
        message:
          'Request rate limit exceeded. Learn more about rate limits here https://stripe.com/docs/rate-limits.',
      });
    case 'api_error':
      return new ApiFailure(500, {
        type: 'api_error',
        message:
          'An unknown error occurred while processing your request. Please retry.',
      });
  }
}

// ---------------------------------------------------------------------------
// Parameters

const ID_ALPHABET =
  '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function randomId(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += ID_ALPHABET[b % ID_ALPHABET.length];
  return out;
}

const newId = (prefix: string) => `${prefix}_3${randomId(23)}`;

const nowSeconds = () => Math.floor(Date.now() / 1000);

function checkKnown(
  params: FormParams,
  known: readonly string[],
  prefix = '',
): void {
  for (const key of Object.keys(params)) {
    if (!known.includes(key)) {
      const name = prefix ? `${prefix}[${key}]` : key;
      throw invalid(`Received unknown parameter: ${name}`, {
        code: 'parameter_unknown',
        param: name,
      });
    }
  }
}

function stringParam(params: FormParams, name: string): string | undefined {
  const v = params[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string')
    throw invalid(`Invalid string: ${JSON.stringify(v)}`, {
      code: 'parameter_invalid_string',
      param: name,
    });
  return v;
}

function required(value: string | undefined, name: string): string {
  if (value === undefined || value === '')
    throw invalid(`Missing required param: ${name}.`, {
      code: 'parameter_missing',
      param: name,
    });
  return value;
}

function integerParam(params: FormParams, name: string): number | undefined {
  const v = stringParam(params, name);
  if (v === undefined) return undefined;
  if (!/^-?\d+$/.test(v) || !Number.isSafeInteger(Number(v)))
    throw invalid(`Invalid integer: ${v}`, {
      code: 'parameter_invalid_integer',
      param: name,
    });
  return Number(v);
}

function booleanParam(
  params: FormParams,
  name: string,
  param = name,
): boolean | undefined {
  const v = stringParam(params, name);
  if (v === undefined) return undefined;
  if (v !== 'true' && v !== 'false')
    throw invalid(`Invalid boolean: ${v}`, { param });
  return v === 'true';
}

function objectParam(params: FormParams, name: string): FormObject | undefined {
  const v = params[name];
  if (v === undefined) return undefined;
  if (!isFormObject(v))
    throw invalid(`Invalid object`, {
      code: 'parameter_invalid_empty',
      param: name,
    });
  return v;
}

function enumParam<T extends string>(
  params: FormParams,
  name: string,
  allowed: readonly T[],
): T | undefined {
  const v = stringParam(params, name);
  if (v === undefined) return undefined;
  const found = allowed.find((a) => a === v);
  if (found === undefined)
    throw invalid(`Invalid ${name}: must be one of ${allowed.join(', ')}`, {
      param: name,
    });
  return found;
}

/** Stripe's limits: 50 keys, keys up to 40 characters, values up to 500. */
function metadataParam(params: FormParams): Stripe.Metadata {
  const raw = objectParam(params, 'metadata');
  const out: Stripe.Metadata = {};
  if (!raw) return out;
  const entries = Object.entries(raw);
  if (entries.length > 50)
    throw invalid('Metadata can have a maximum of 50 keys.', {
      param: 'metadata',
    });
  for (const [key, value] of entries) {
    const param = `metadata[${key}]`;
    if (typeof value !== 'string')
      throw invalid(`Invalid string: ${JSON.stringify(value)}`, {
        code: 'parameter_invalid_string',
        param,
      });
    if (key.length > 40)
      throw invalid(
        `Metadata keys can have a maximum length of 40 characters.`,
        { param },
      );
    if (value.length > 500)
      throw invalid(
        `Metadata values can have a maximum length of 500 characters.`,
        { param },
      );
    // An empty value unsets the key, so it is never stored.
    if (value !== '') out[key] = value;
  }
  return out;
}

function expandParam(
  params: FormParams,
  expandable: readonly string[],
): string[] {
  const raw = params.expand;
  if (raw === undefined) return [];
  const list = typeof raw === 'string' ? [raw] : raw;
  if (!Array.isArray(list)) throw invalid('Invalid array', { param: 'expand' });
  return list.map((v) => {
    if (typeof v !== 'string' || !expandable.includes(v))
      throw invalid(`This property cannot be expanded (${String(v)}).`, {
        param: 'expand',
      });
    return v;
  });
}

/** Smallest charge amounts Stripe accepts, in the currency's minor unit. */
const MINIMUM_AMOUNT: Readonly<Record<string, number>> = {
  jpy: 50,
  usd: 50,
  eur: 50,
};
const ZERO_DECIMAL = new Set(['jpy', 'krw', 'vnd']);

function formatAmount(amount: number, currency: string): string {
  if (currency === 'jpy') return `¥${amount}`;
  return ZERO_DECIMAL.has(currency)
    ? `${amount} ${currency}`
    : `${(amount / 100).toFixed(2)} ${currency}`;
}

// ---------------------------------------------------------------------------
// The server

/** One webhook POST the fake made, and how the receiver answered. */
export type WebhookDelivery = {
  event: Stripe.Event;
  url: string;
  /** The exact body sent (Stripe pretty-prints with two spaces). */
  payload: string;
  /** The `Stripe-Signature` header sent. */
  signature: string;
  /** The receiver's status code, or `null` when the request itself failed. */
  status: number | null;
  /** The receiver's response body (or the network error's message). */
  responseBody: string;
};

/** One API request the fake answered. */
export type RecordedRequest = {
  method: string;
  path: string;
  params: FormParams;
  idempotencyKey: string | null;
  stripeVersion: string | null;
  status: number;
  /** The response came from the idempotency store. */
  replayed: boolean;
  requestId: string;
};

export type StripeFakeState = {
  paymentIntents: Map<string, Stripe.PaymentIntent>;
  charges: Map<string, Stripe.Charge>;
  refunds: Map<string, Stripe.Refund>;
  /** Every event created, oldest first (sent or filtered out). */
  events: Stripe.Event[];
  deliveries: WebhookDelivery[];
  requests: RecordedRequest[];
};

export type StripeFakeOptions = {
  /** Default: a free port on 127.0.0.1. */
  port?: number;
  /** Where events are POSTed; none are sent without it (see `setWebhook`). */
  webhookUrl?: string;
  /** The endpoint's signing secret; default a random `whsec_…`. */
  webhookSecret?: string;
  /** Default a random `sk_test_…`. */
  secretKey?: string;
  /**
   * Event types sent to the webhook, like a webhook endpoint's
   * `enabled_events`; default `['*']`, every event. Events are created (and
   * kept in `state.events`) either way.
   */
  enabledEvents?: readonly string[];
};

export type SendEventOptions = {
  /**
   * Send the previous delivery of this event again byte for byte: same
   * payload, same `Stripe-Signature` (same timestamp), as an attacker
   * replaying a captured request would. Without it the event (same id) is
   * re-signed with a fresh timestamp, as Stripe's own redelivery does.
   */
  replay?: boolean;
  /** Unix seconds for the signature; default now. */
  timestamp?: number;
  /** Sign with this secret instead of the endpoint's. */
  secret?: string;
  /** Send this `Stripe-Signature` header verbatim. */
  signature?: string;
  /** Deliver to this URL instead of `webhookUrl`. */
  url?: string;
};

export type FailNextOptions = {
  /** Default `api_error`. */
  kind?: InjectedFailure;
  /** Only requests with this method (default any). */
  method?: string;
  /** Only requests whose path matches (default any). */
  path?: string | RegExp;
};

/** What a test-side control changed, and the event it sent. */
export type Settled<T> = {
  object: T;
  event: Stripe.Event;
  /** `null` when no webhook URL is set or the event type is not enabled. */
  delivery: WebhookDelivery | null;
};

export type StripeFake = {
  /** `http://127.0.0.1:<port>`, e.g. for `STRIPE_API_BASE`. */
  url: string;
  port: number;
  host: string;
  secretKey: string;
  readonly webhookSecret: string;
  readonly webhookUrl: string | undefined;
  state: StripeFakeState;
  /** Point deliveries elsewhere (e.g. at an API server started after the fake). */
  setWebhook(url: string | undefined, secret?: string): void;
  /** The customer paid: status `succeeded`, a charge, `payment_intent.succeeded`. */
  succeed(paymentIntentId: string): Promise<Settled<Stripe.PaymentIntent>>;
  /** The payment was declined: back to `requires_payment_method`, `payment_intent.payment_failed`. */
  fail(
    paymentIntentId: string,
    opts?: { code?: string; declineCode?: string; message?: string },
  ): Promise<Settled<Stripe.PaymentIntent>>;
  /** Signs and POSTs an event to the webhook (see `SendEventOptions`). */
  sendEvent(
    event: Stripe.Event,
    opts?: SendEventOptions,
  ): Promise<WebhookDelivery>;
  /** The next `n` requests that match fail as `kind` does at Stripe. */
  failNext(n: number, opts?: FailNextOptions): void;
  /** The next `n` POST /v1/refunds fail; default `invalid_request` (400 balance_insufficient). */
  failNextRefunds(n?: number, kind?: InjectedFailure): void;
  /** Resolves when every webhook delivery started so far has finished. */
  settled(): Promise<void>;
  /** Forget all objects, events, requests, idempotency keys and injected failures. */
  reset(): void;
  close(): Promise<void>;
};

type StoredResponse = {
  method: string;
  path: string;
  fingerprint: string;
  status: number;
  body: string;
  requestId: string;
};

type Injection = {
  remaining: number;
  kind: InjectedFailure;
  method: string | undefined;
  path: string | RegExp | undefined;
};

type RequestContext = {
  requestId: string;
  idempotencyKey: string | null;
  /** Events the request caused, sent once its response is written. */
  events: Stripe.Event[];
};

type Handled = { status: number; body: unknown };

type EventOf<K extends Stripe.Event['type']> = Extract<
  Stripe.Event,
  { type: K }
>;

const PAYMENT_INTENT_CREATE_PARAMS = [
  'amount',
  'currency',
  'allowed_payment_method_types',
  'amount_details',
  'application_fee_amount',
  'automatic_payment_methods',
  'capture_method',
  'confirm',
  'confirmation_method',
  'confirmation_token',
  'customer',
  'customer_account',
  'description',
  'error_on_requires_action',
  'excluded_payment_method_types',
  'expand',
  'hooks',
  'mandate',
  'mandate_data',
  'metadata',
  'off_session',
  'on_behalf_of',
  'payment_details',
  'payment_method',
  'payment_method_configuration',
  'payment_method_data',
  'payment_method_options',
  'radar_options',
  'receipt_email',
  'return_url',
  'setup_future_usage',
  'shipping',
  'statement_descriptor',
  'statement_descriptor_suffix',
  'transfer_data',
  'transfer_group',
  'use_stripe_sdk',
] as const;

/** Accepted by the real API but not modelled here: a clear error beats silence. */
const PAYMENT_INTENT_UNSUPPORTED = [
  'confirm',
  'confirmation_token',
  'payment_method_data',
  'mandate',
  'mandate_data',
  'off_session',
  'transfer_data',
  'application_fee_amount',
  'on_behalf_of',
] as const;

const REFUND_CREATE_PARAMS = [
  'amount',
  'charge',
  'currency',
  'customer',
  'expand',
  'instructions_email',
  'metadata',
  'origin',
  'payment_intent',
  'reason',
  'refund_application_fee',
  'reverse_transfer',
] as const;

const CANCELABLE: readonly string[] = [
  'requires_payment_method',
  'requires_capture',
  'requires_confirmation',
  'requires_action',
  'processing',
];

/**
 * Starts the fake on 127.0.0.1. Point the `stripe` library at it with
 * `new Stripe(fake.secretKey, { host: '127.0.0.1', port: fake.port, protocol: 'http' })`.
 */
export async function startStripeFake(
  opts: StripeFakeOptions = {},
): Promise<StripeFake> {
  const secretKey = opts.secretKey ?? `sk_test_fake${randomId(24)}`;
  let webhookSecret = opts.webhookSecret ?? `whsec_${randomId(32)}`;
  let webhookUrl = opts.webhookUrl;
  const enabledEvents = opts.enabledEvents ?? ['*'];

  const state: StripeFakeState = {
    paymentIntents: new Map(),
    charges: new Map(),
    refunds: new Map(),
    events: [],
    deliveries: [],
    requests: [],
  };
  const idempotency = new Map<string, StoredResponse>();
  let injections: Injection[] = [];
  const pending = new Set<Promise<unknown>>();

  // -- events and webhooks --------------------------------------------------

  function buildEvent<K extends Stripe.Event['type']>(
    type: K,
    data: EventOf<K>['data'],
    ctx: RequestContext | null,
  ): EventOf<K> {
    const event = {
      id: `evt_${randomId(24)}`,
      object: 'event' as const,
      api_version: FAKE_API_VERSION,
      created: nowSeconds(),
      data: structuredClone(data),
      livemode: false,
      pending_webhooks: webhookUrl ? 1 : 0,
      request: {
        id: ctx?.requestId ?? null,
        idempotency_key: ctx?.idempotencyKey ?? null,
      },
      type,
    };
    // `type` and `data` belong together by construction (EventOf<K>), which
    // TypeScript cannot see through the union.
    return event as unknown as EventOf<K>;
  }

  const enabled = (type: string) =>
    enabledEvents.includes('*') || enabledEvents.includes(type);

  async function deliver(
    event: Stripe.Event,
    payload: string,
    signature: string,
    url: string,
  ): Promise<WebhookDelivery> {
    const delivery: WebhookDelivery = {
      event,
      url,
      payload,
      signature,
      status: null,
      responseBody: '',
    };
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'Stripe-Signature': signature,
        },
        body: payload,
        signal: AbortSignal.timeout(10_000),
      });
      delivery.status = res.status;
      delivery.responseBody = await res.text();
    } catch (e) {
      delivery.responseBody = e instanceof Error ? e.message : String(e);
    }
    state.deliveries.push(delivery);
    return delivery;
  }

  function track<T>(p: Promise<T>): Promise<T> {
    pending.add(p);
    void p.finally(() => pending.delete(p));
    return p;
  }

  function sendEvent(
    event: Stripe.Event,
    o: SendEventOptions = {},
  ): Promise<WebhookDelivery> {
    const url = o.url ?? webhookUrl;
    if (!url)
      return Promise.reject(
        new Error('stripe-fake: no webhook URL (pass webhookUrl or url)'),
      );
    if (o.replay) {
      const previous = state.deliveries.findLast(
        (d) => d.event.id === event.id,
      );
      if (!previous)
        return Promise.reject(
          new Error(`stripe-fake: ${event.id} was never delivered`),
        );
      return track(
        deliver(previous.event, previous.payload, previous.signature, url),
      );
    }
    const payload = JSON.stringify(event, null, 2);
    const signature =
      o.signature ??
      signPayload(payload, o.secret ?? webhookSecret, o.timestamp);
    return track(deliver(event, payload, signature, url));
  }

  /** Records an event and, if a webhook is set and the type enabled, sends it. */
  function emit(event: Stripe.Event): Promise<WebhookDelivery | null> {
    state.events.push(event);
    if (!webhookUrl || !enabled(event.type)) return Promise.resolve(null);
    return sendEvent(event);
  }

  // -- objects ----------------------------------------------------------------

  function getPaymentIntent(id: string): Stripe.PaymentIntent {
    const pi = state.paymentIntents.get(id);
    if (!pi) throw missingResource('payment_intent', id);
    return pi;
  }

  function newCharge(
    pi: Stripe.PaymentIntent,
    paymentMethod: string,
    outcome: 'succeeded' | 'failed',
    failure?: { code: string; message: string },
  ): Stripe.Charge {
    const paid = outcome === 'succeeded';
    const charge: Stripe.Charge = {
      id: newId('ch'),
      object: 'charge',
      amount: pi.amount,
      amount_captured: paid ? pi.amount : 0,
      amount_refunded: 0,
      application: null,
      application_fee: null,
      application_fee_amount: null,
      balance_transaction: paid ? newId('txn') : null,
      billing_details: {
        address: {
          city: null,
          country: null,
          line1: null,
          line2: null,
          postal_code: null,
          state: null,
        },
        email: null,
        name: null,
        phone: null,
        tax_id: null,
      },
      calculated_statement_descriptor: 'PROAM CONNECT',
      captured: paid,
      created: nowSeconds(),
      currency: pi.currency,
      customer: pi.customer,
      description: pi.description,
      disputed: false,
      failure_balance_transaction: null,
      failure_code: failure?.code ?? null,
      failure_message: failure?.message ?? null,
      fraud_details: {},
      livemode: false,
      metadata: { ...pi.metadata },
      on_behalf_of: null,
      outcome: null,
      paid,
      payment_intent: pi.id,
      payment_method: paymentMethod,
      payment_method_details: null,
      receipt_email: pi.receipt_email,
      receipt_number: null,
      receipt_url: null,
      refunded: false,
      review: null,
      shipping: null,
      source: null,
      source_transfer: null,
      statement_descriptor: pi.statement_descriptor,
      statement_descriptor_suffix: pi.statement_descriptor_suffix,
      status: outcome,
      transfer_data: null,
      transfer_group: pi.transfer_group,
    };
    state.charges.set(charge.id, charge);
    return charge;
  }

  function createPaymentIntent(params: FormParams): Stripe.PaymentIntent {
    checkKnown(params, PAYMENT_INTENT_CREATE_PARAMS);
    for (const name of PAYMENT_INTENT_UNSUPPORTED) {
      if (params[name] !== undefined)
        throw invalid(
          `stripe-fake does not model the parameter ${name}; extend test-support/stripe-fake.ts if you need it.`,
          { param: name },
        );
    }
    const amount = integerParam(params, 'amount');
    if (amount === undefined)
      throw invalid('Missing required param: amount.', {
        code: 'parameter_missing',
        param: 'amount',
      });
    const currencyRaw = required(stringParam(params, 'currency'), 'currency');
    const currency = currencyRaw.toLowerCase();
    if (!/^[a-z]{3}$/.test(currency))
      throw invalid(`Invalid currency: ${currencyRaw}.`, {
        code: 'parameter_invalid_string',
        param: 'currency',
      });
    const minimum = MINIMUM_AMOUNT[currency] ?? 1;
    if (amount < minimum)
      throw invalid(
        `Amount must be at least ${formatAmount(minimum, currency)}`,
        { code: 'amount_too_small', param: 'amount' },
      );
    if (amount > 99_999_999)
      throw invalid(
        `Amount must be no more than ${formatAmount(99_999_999, currency)}`,
        { code: 'amount_too_large', param: 'amount' },
      );

    const apmRaw = objectParam(params, 'automatic_payment_methods');
    let automatic: Stripe.PaymentIntent.AutomaticPaymentMethods | null = null;
    if (apmRaw) {
      checkKnown(
        apmRaw,
        ['enabled', 'allow_redirects'],
        'automatic_payment_methods',
      );
      const enabledApm = booleanParam(
        apmRaw,
        'enabled',
        'automatic_payment_methods[enabled]',
      );
      if (enabledApm === undefined)
        throw invalid(
          'Missing required param: automatic_payment_methods[enabled].',
          {
            code: 'parameter_missing',
            param: 'automatic_payment_methods[enabled]',
          },
        );
      const redirects = enumParam(apmRaw, 'allow_redirects', [
        'always',
        'never',
      ] as const);
      automatic = enabledApm
        ? {
            enabled: true,
            ...(redirects ? { allow_redirects: redirects } : {}),
          }
        : { enabled: false };
    }
    // API 2026-09-30 replaced the `payment_method_types` parameter with
    // `allowed_payment_method_types` (the response keeps
    // `payment_method_types`: what the payment may actually use).
    const allowedRaw = params.allowed_payment_method_types;
    let allowed: string[] | null = null;
    if (allowedRaw !== undefined) {
      if (
        !Array.isArray(allowedRaw) ||
        allowedRaw.length === 0 ||
        !allowedRaw.every((t): t is string => typeof t === 'string')
      )
        throw invalid('Invalid array', {
          param: 'allowed_payment_method_types',
        });
      allowed = allowedRaw;
    }
    // Automatic payment methods are on unless turned off (since 2023-08-16).
    automatic ??= { enabled: true };
    const paymentMethodTypes = allowed ?? ['card'];

    const id = newId('pi');
    const pi: Stripe.PaymentIntent = {
      id,
      object: 'payment_intent',
      allowed_payment_method_types: allowed,
      amount,
      amount_capturable: 0,
      amount_received: 0,
      application: null,
      application_fee_amount: null,
      automatic_payment_methods: automatic,
      canceled_at: null,
      cancellation_reason: null,
      capture_method:
        enumParam(params, 'capture_method', [
          'automatic',
          'automatic_async',
          'manual',
        ] as const) ?? 'automatic_async',
      client_secret: `${id}_secret_${randomId(25)}`,
      confirmation_method:
        enumParam(params, 'confirmation_method', [
          'automatic',
          'manual',
        ] as const) ?? 'automatic',
      created: nowSeconds(),
      currency,
      customer: stringParam(params, 'customer') ?? null,
      customer_account: stringParam(params, 'customer_account') ?? null,
      description: stringParam(params, 'description') ?? null,
      excluded_payment_method_types: null,
      last_payment_error: null,
      latest_charge: null,
      livemode: false,
      managed_payments: null,
      metadata: metadataParam(params),
      next_action: null,
      on_behalf_of: null,
      payment_method: stringParam(params, 'payment_method') ?? null,
      payment_method_configuration_details: null,
      payment_method_options: null,
      payment_method_types: paymentMethodTypes,
      payment_record: null,
      processing: null,
      receipt_email: stringParam(params, 'receipt_email') ?? null,
      review: null,
      setup_future_usage:
        enumParam(params, 'setup_future_usage', [
          'off_session',
          'on_session',
        ] as const) ?? null,
      shipping: null,
      source: null,
      statement_descriptor: stringParam(params, 'statement_descriptor') ?? null,
      statement_descriptor_suffix:
        stringParam(params, 'statement_descriptor_suffix') ?? null,
      status: 'requires_payment_method',
      transfer_group: stringParam(params, 'transfer_group') ?? null,
    };
    expandParam(params, ['latest_charge']);
    state.paymentIntents.set(id, pi);
    return pi;
  }

  function cancelPaymentIntent(
    id: string,
    params: FormParams,
    ctx: RequestContext,
  ): Stripe.PaymentIntent {
    checkKnown(params, ['cancellation_reason', 'expand']);
    const pi = getPaymentIntent(id);
    const reason = enumParam(params, 'cancellation_reason', [
      'abandoned',
      'duplicate',
      'fraudulent',
      'requested_by_customer',
    ] as const);
    expandParam(params, ['latest_charge']);
    if (!CANCELABLE.includes(pi.status))
      throw invalid(
        `You cannot cancel this PaymentIntent because it has a status of ${pi.status}. Only a PaymentIntent with one of the following statuses may be canceled: ${CANCELABLE.join(', ')}.`,
        { code: 'payment_intent_unexpected_state' },
      );
    const previous = { status: pi.status, canceled_at: pi.canceled_at };
    pi.status = 'canceled';
    pi.canceled_at = nowSeconds();
    pi.cancellation_reason = reason ?? null;
    ctx.events.push(
      buildEvent(
        'payment_intent.canceled',
        { object: pi, previous_attributes: previous },
        ctx,
      ),
    );
    return pi;
  }

  function createRefund(
    params: FormParams,
    ctx: RequestContext,
  ): Stripe.Refund {
    checkKnown(params, REFUND_CREATE_PARAMS);
    const piId = stringParam(params, 'payment_intent');
    const chargeId = stringParam(params, 'charge');
    if (!piId && !chargeId)
      throw invalid(
        'One of the following params should be provided for this request: payment_intent or charge.',
        { code: 'parameter_missing' },
      );
    let charge: Stripe.Charge | undefined;
    let pi: Stripe.PaymentIntent | undefined;
    if (piId) {
      pi = state.paymentIntents.get(piId);
      if (!pi)
        throw invalid(`No such payment_intent: '${piId}'`, {
          code: 'resource_missing',
          param: 'payment_intent',
        });
      const latest =
        typeof pi.latest_charge === 'string' ? pi.latest_charge : null;
      charge = latest ? state.charges.get(latest) : undefined;
      if (pi.status !== 'succeeded' || !charge)
        throw invalid(
          `This PaymentIntent (${piId}) does not have a successful charge to refund.`,
          { param: 'payment_intent' },
        );
      if (chargeId && chargeId !== charge.id)
        throw invalid(`The charge ${chargeId} does not belong to ${piId}.`, {
          param: 'charge',
        });
    } else if (chargeId) {
      charge = state.charges.get(chargeId);
      if (!charge)
        throw invalid(`No such charge: '${chargeId}'`, {
          code: 'resource_missing',
          param: 'charge',
        });
      if (charge.status !== 'succeeded')
        throw invalid(`Charge ${chargeId} has not succeeded.`, {
          param: 'charge',
        });
      const owner = charge.payment_intent;
      pi =
        typeof owner === 'string' ? state.paymentIntents.get(owner) : undefined;
    }
    if (!charge) throw new Error('unreachable: no charge');

    const remaining = charge.amount_captured - charge.amount_refunded;
    const requested = integerParam(params, 'amount');
    const reason = enumParam(params, 'reason', [
      'duplicate',
      'fraudulent',
      'requested_by_customer',
    ] as const);
    const metadata = metadataParam(params);
    expandParam(params, ['charge', 'payment_intent']);
    if (remaining <= 0)
      throw invalid(`Charge ${charge.id} has already been refunded.`, {
        code: 'charge_already_refunded',
      });
    if (requested !== undefined && requested <= 0)
      throw invalid('Refund amount must be positive.', {
        code: 'parameter_invalid_integer',
        param: 'amount',
      });
    if (requested !== undefined && requested > remaining)
      throw invalid(
        `Refund amount (${formatAmount(requested, charge.currency)}) is greater than unrefunded amount on charge (${formatAmount(remaining, charge.currency)})`,
        { code: 'amount_too_large', param: 'amount' },
      );
    const amount = requested ?? remaining;

    const refund: Stripe.Refund = {
      id: newId('re'),
      object: 'refund',
      amount,
      balance_transaction: newId('txn'),
      charge: charge.id,
      created: nowSeconds(),
      currency: charge.currency,
      customer: null,
      customer_account: null,
      metadata,
      payment_intent: pi?.id ?? null,
      payment_method: charge.payment_method,
      reason: reason ?? null,
      receipt_number: null,
      source_transfer_reversal: null,
      status: 'succeeded',
      transfer_reversal: null,
    };
    state.refunds.set(refund.id, refund);
    const previous: Partial<Stripe.Charge> = {
      amount_refunded: charge.amount_refunded,
    };
    charge.amount_refunded += amount;
    const fully = charge.amount_refunded >= charge.amount_captured;
    if (fully !== charge.refunded) previous.refunded = charge.refunded;
    charge.refunded = fully;
    ctx.events.push(
      buildEvent(
        'charge.refunded',
        { object: charge, previous_attributes: previous },
        ctx,
      ),
    );
    return refund;
  }

  const expandedPaymentIntent = (
    pi: Stripe.PaymentIntent,
    expand: readonly string[],
  ): Stripe.PaymentIntent => {
    if (
      expand.includes('latest_charge') &&
      typeof pi.latest_charge === 'string'
    )
      return {
        ...pi,
        latest_charge: state.charges.get(pi.latest_charge) ?? null,
      };
    return pi;
  };

  const expandedRefund = (
    refund: Stripe.Refund,
    expand: readonly string[],
  ): Stripe.Refund => {
    const out = { ...refund };
    if (expand.includes('charge') && typeof refund.charge === 'string')
      out.charge = state.charges.get(refund.charge) ?? null;
    if (
      expand.includes('payment_intent') &&
      typeof refund.payment_intent === 'string'
    )
      out.payment_intent =
        state.paymentIntents.get(refund.payment_intent) ?? null;
    return out;
  };

  // -- routing ------------------------------------------------------------------

  function route(
    method: string,
    path: string,
    params: FormParams,
    ctx: RequestContext,
  ): Handled {
    let m: RegExpExecArray | null;
    if (path === '/v1/payment_intents' && method === 'POST') {
      const pi = createPaymentIntent(params);
      return {
        status: 200,
        body: expandedPaymentIntent(pi, expandParam(params, ['latest_charge'])),
      };
    }
    if (
      (m = /^\/v1\/payment_intents\/([^/]+)$/.exec(path)) &&
      method === 'GET'
    ) {
      checkKnown(params, ['client_secret', 'expand']);
      const pi = getPaymentIntent(decodeURIComponent(m[1] ?? ''));
      return {
        status: 200,
        body: expandedPaymentIntent(pi, expandParam(params, ['latest_charge'])),
      };
    }
    if (
      (m = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(path)) &&
      method === 'POST'
    ) {
      const pi = cancelPaymentIntent(
        decodeURIComponent(m[1] ?? ''),
        params,
        ctx,
      );
      return {
        status: 200,
        body: expandedPaymentIntent(pi, expandParam(params, ['latest_charge'])),
      };
    }
    if (path === '/v1/refunds' && method === 'POST') {
      const refund = createRefund(params, ctx);
      return {
        status: 200,
        body: expandedRefund(
          refund,
          expandParam(params, ['charge', 'payment_intent']),
        ),
      };
    }
    if ((m = /^\/v1\/refunds\/([^/]+)$/.exec(path)) && method === 'GET') {
      checkKnown(params, ['expand']);
      const id = decodeURIComponent(m[1] ?? '');
      const refund = state.refunds.get(id);
      if (!refund) throw missingResource('refund', id);
      return {
        status: 200,
        body: expandedRefund(
          refund,
          expandParam(params, ['charge', 'payment_intent']),
        ),
      };
    }
    if ((m = /^\/v1\/charges\/([^/]+)$/.exec(path)) && method === 'GET') {
      checkKnown(params, ['expand']);
      expandParam(params, []);
      const id = decodeURIComponent(m[1] ?? '');
      const charge = state.charges.get(id);
      if (!charge) throw missingResource('charge', id);
      return { status: 200, body: charge };
    }
    throw invalid(
      `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
      { status: 404 },
    );
  }

  function authenticate(header: string | undefined): void {
    let key: string | undefined;
    if (header?.startsWith('Bearer ')) key = header.slice(7).trim();
    else if (header?.startsWith('Basic ')) {
      const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
      key = decoded.split(':')[0];
    }
    if (!key)
      throw invalid(
        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
        { status: 401 },
      );
    if (key !== secretKey) {
      const shown =
        key.length > 12
          ? `${key.slice(0, 8)}${'*'.repeat(key.length - 12)}${key.slice(-4)}`
          : key;
      throw invalid(`Invalid API Key provided: ${shown}`, { status: 401 });
    }
  }

  function takeInjection(method: string, path: string): InjectedFailure | null {
    const found = injections.find(
      (i) =>
        i.remaining > 0 &&
        (i.method === undefined || i.method === method) &&
        (i.path === undefined ||
          (typeof i.path === 'string' ? i.path === path : i.path.test(path))),
    );
    if (!found) return null;
    found.remaining -= 1;
    injections = injections.filter((i) => i.remaining > 0);
    return found.kind;
  }

  const readBody = (req: http.IncomingMessage) =>
    new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      req.on('error', reject);
    });

  const header = (req: http.IncomingMessage, name: string) => {
    const v = req.headers[name];
    return Array.isArray(v) ? v[0] : v;
  };

  async function handle(
    req: http.IncomingMessage,
    res: http.ServerResponse,
  ): Promise<void> {
    const requestId = `req_${randomId(14)}`;
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', `http://${HOST}`);
    const path = url.pathname;
    const idempotencyKey =
      method === 'POST' ? (header(req, 'idempotency-key') ?? null) : null;
    const stripeVersion = header(req, 'stripe-version') ?? null;
    const body = await readBody(req);
    let params: FormParams = {};
    const record = (status: number, replayed: boolean, rid = requestId) =>
      state.requests.push({
        method,
        path,
        params,
        idempotencyKey,
        stripeVersion,
        status,
        replayed,
        requestId: rid,
      });
    const send = (
      status: number,
      json: string,
      extra: Readonly<Record<string, string>> = {},
      rid = requestId,
    ) => {
      res.writeHead(status, {
        'Content-Type': 'application/json',
        'Request-Id': rid,
        'Stripe-Version': stripeVersion ?? FAKE_API_VERSION,
        ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
        ...extra,
      });
      res.end(json);
    };
    try {
      try {
        params = parseStripeForm(method === 'GET' ? url.search.slice(1) : body);
      } catch {
        throw invalid('Invalid request: the form encoding is malformed.');
      }
      authenticate(header(req, 'authorization'));
      const fingerprint = canonical(params);
      if (idempotencyKey !== null) {
        const stored = idempotency.get(idempotencyKey);
        if (stored) {
          if (stored.method !== method || stored.path !== path)
            throw new ApiFailure(400, {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used for the same endpoint they were first used for ('${stored.method} ${stored.path}' vs '${method} ${path}'). Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
            });
          if (stored.fingerprint !== fingerprint)
            throw new ApiFailure(400, {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
            });
          record(stored.status, true, stored.requestId);
          send(
            stored.status,
            stored.body,
            {
              'Idempotent-Replayed': 'true',
              'Original-Request': stored.requestId,
            },
            stored.requestId,
          );
          return;
        }
      }
      const failure = takeInjection(method, path);
      if (failure) throw injected(failure);
      const ctx: RequestContext = { requestId, idempotencyKey, events: [] };
      const result = route(method, path, params, ctx);
      const json = JSON.stringify(result.body, null, 2);
      if (idempotencyKey !== null && method === 'POST')
        idempotency.set(idempotencyKey, {
          method,
          path,
          fingerprint,
          status: result.status,
          body: json,
          requestId,
        });
      record(result.status, false);
      send(result.status, json);
      // As at Stripe, webhooks for what a request did follow its response.
      for (const event of ctx.events) void emit(event);
    } catch (e) {
      const failure =
        e instanceof ApiFailure
          ? e
          : new ApiFailure(500, {
              type: 'api_error',
              message: `stripe-fake: ${e instanceof Error ? e.message : String(e)}`,
            });
      const error: StripeErrorBody = {
        ...failure.error,
        request_log_url: `https://dashboard.stripe.com/test/logs/${requestId}?t=${nowSeconds()}`,
      };
      record(failure.status, false);
      send(failure.status, JSON.stringify({ error }, null, 2), failure.headers);
    }
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(e));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  // -- test-side controls -------------------------------------------------------

  async function succeed(id: string): Promise<Settled<Stripe.PaymentIntent>> {
    const pi = state.paymentIntents.get(id);
    if (!pi) throw new Error(`stripe-fake: no PaymentIntent ${id}`);
    if (
      ![
        'requires_payment_method',
        'requires_confirmation',
        'requires_action',
        'processing',
      ].includes(pi.status)
    )
      throw new Error(
        `stripe-fake: cannot succeed ${id}, its status is ${pi.status}`,
      );
    const paymentMethod = newId('pm');
    const charge = newCharge(pi, paymentMethod, 'succeeded');
    const previous = {
      status: pi.status,
      amount_received: pi.amount_received,
      latest_charge: pi.latest_charge,
      payment_method: pi.payment_method,
      last_payment_error: pi.last_payment_error,
    };
    pi.status = 'succeeded';
    pi.amount_received = pi.amount;
    pi.latest_charge = charge.id;
    pi.payment_method = paymentMethod;
    pi.last_payment_error = null;
    const event = buildEvent(
      'payment_intent.succeeded',
      { object: pi, previous_attributes: previous },
      null,
    );
    const delivery = await emit(event);
    return { object: pi, event, delivery };
  }

  async function fail(
    id: string,
    o: { code?: string; declineCode?: string; message?: string } = {},
  ): Promise<Settled<Stripe.PaymentIntent>> {
    const pi = state.paymentIntents.get(id);
    if (!pi) throw new Error(`stripe-fake: no PaymentIntent ${id}`);
    if (
      ![
        'requires_payment_method',
        'requires_confirmation',
        'requires_action',
        'processing',
      ].includes(pi.status)
    )
      throw new Error(
        `stripe-fake: cannot fail ${id}, its status is ${pi.status}`,
      );
    const code = o.code ?? 'card_declined';
    const message = o.message ?? 'Your card was declined.';
    const paymentMethod = newId('pm');
    const charge = newCharge(pi, paymentMethod, 'failed', { code, message });
    const previous = {
      status: pi.status,
      latest_charge: pi.latest_charge,
      last_payment_error: pi.last_payment_error,
    };
    pi.status = 'requires_payment_method';
    pi.latest_charge = charge.id;
    pi.payment_method = null;
    pi.last_payment_error = {
      type: 'card_error',
      charge: charge.id,
      code,
      decline_code: o.declineCode ?? 'generic_decline',
      doc_url: docUrl(code),
      message,
      payment_method_type: 'card',
    };
    const event = buildEvent(
      'payment_intent.payment_failed',
      { object: pi, previous_attributes: previous },
      null,
    );
    const delivery = await emit(event);
    return { object: pi, event, delivery };
  }

  return {
    url: `http://${HOST}:${port}`,
    port,
    host: HOST,
    secretKey,
    get webhookSecret() {
      return webhookSecret;
    },
    get webhookUrl() {
      return webhookUrl;
    },
    state,
    setWebhook(url, secret) {
      webhookUrl = url;
      if (secret !== undefined) webhookSecret = secret;
    },
    succeed,
    fail,
    sendEvent,
    failNext(n, o = {}) {
      injections.push({
        remaining: n,
        kind: o.kind ?? 'api_error',
        method: o.method,
        path: o.path,
      });
    },
    failNextRefunds(n = 1, kind = 'invalid_request') {
      injections.push({
        remaining: n,
        kind,
        method: 'POST',
        path: '/v1/refunds',
      });
    },
    async settled() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    reset() {
      state.paymentIntents.clear();
      state.charges.clear();
      state.refunds.clear();
      state.events.length = 0;
      state.deliveries.length = 0;
      state.requests.length = 0;
      idempotency.clear();
      injections = [];
    },
    async close() {
      await Promise.allSettled([...pending]);
      await new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
