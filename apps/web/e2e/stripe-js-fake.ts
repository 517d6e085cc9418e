/**
 * Stripe.js in the browser tests. The real Payment Element is an iframe from
 * js.stripe.com that talks to Stripe's servers, which this closed network
 * cannot reach, so the tests serve a stand-in at Stripe.js's own URL
 * (`https://js.stripe.com/<release>/stripe.js`, loaded by @stripe/stripe-js
 * exactly as in production, under the production CSP). It implements the
 * public surface the app uses through @stripe/react-stripe-js: `Stripe(pk)`,
 * `elements({ clientSecret })`, `elements.create('payment')` (a plain card
 * number field drawn into the element's node), `elements.submit()` and
 * `stripe.confirmPayment()`. Confirming posts the client secret and the card
 * number to `https://api.stripe.com/__e2e/confirm` (inside the CSP's
 * connect-src; a text/plain body, so no CORS preflight), which the test intercepts and settles at the Stripe fake
 * (test-support/stripe-fake.ts): 4242… succeeds (the fake then sends the
 * signed `payment_intent.succeeded` webhook to the server, as Stripe does),
 * 4000 0000 0000 0002 is declined (`payment_intent.payment_failed`).
 */
import type { BrowserContext } from 'playwright-core';
import type { StripeFake } from '../../../test-support/stripe-fake.ts';

export const CARD_OK = '4242 4242 4242 4242';
export const CARD_DECLINED = '4000 0000 0000 0002';

const CONFIRM_URL = 'https://api.stripe.com/__e2e/confirm';

/** Runs in the page: keep it plain ES2020 with no imports. */
const STRIPE_JS = `(() => {
  const confirmUrl = ${JSON.stringify(CONFIRM_URL)};
  const unsupported = (name) => () => Promise.reject(new Error('stripe-js-fake: ' + name + ' is not supported'));
  function Stripe(key) {
    if (typeof key !== 'string' || !key.startsWith('pk_')) throw new Error('Invalid publishable key');
    let mounted = null;
    const stripe = {
      _registerWrapper() {},
      registerAppInfo() {},
      // What @stripe/react-stripe-js checks to recognise a Stripe instance (unused by the app).
      createToken: unsupported('createToken'),
      createPaymentMethod: unsupported('createPaymentMethod'),
      confirmCardPayment: unsupported('confirmCardPayment'),
      elements(options) {
        const clientSecret = options && options.clientSecret;
        const elements = {
          _clientSecret: clientSecret,
          create(type) {
            if (type !== 'payment') throw new Error('stripe-js-fake: only the Payment Element');
            const handlers = {};
            const emit = (name, ev) => (handlers[name] || []).forEach((h) => h(ev));
            let input = null;
            const el = {
              mount(node) {
                const host = typeof node === 'string' ? document.querySelector(node) : node;
                const label = document.createElement('label');
                label.textContent = 'カード番号';
                input = document.createElement('input');
                input.inputMode = 'numeric';
                input.autocomplete = 'cc-number';
                input.placeholder = '1234 1234 1234 1234';
                input.style.display = 'block';
                input.style.width = '100%';
                input.style.padding = '12px';
                input.style.fontSize = '16px';
                input.style.border = '1px solid #c8ccd2';
                input.style.borderRadius = '6px';
                input.style.boxSizing = 'border-box';
                label.appendChild(input);
                host.appendChild(label);
                input.addEventListener('input', () => {
                  const digits = input.value.replace(/\\D/g, '');
                  emit('change', { elementType: 'payment', empty: digits === '', complete: digits.length >= 16, value: { type: 'card' } });
                });
                mounted = { input };
                setTimeout(() => emit('ready', { elementType: 'payment' }), 0);
              },
              on(name, h) { (handlers[name] = handlers[name] || []).push(h); return el; },
              off(name, h) { handlers[name] = (handlers[name] || []).filter((x) => x !== h); return el; },
              once(name, h) { const w = (ev) => { el.off(name, w); h(ev); }; return el.on(name, w); },
              update() {},
              focus() { if (input) input.focus(); },
              blur() { if (input) input.blur(); },
              clear() { if (input) input.value = ''; },
              collapse() {},
              unmount() { if (input && input.parentNode) input.parentNode.remove(); },
              destroy() { el.unmount(); mounted = null; },
            };
            return el;
          },
          getElement() { return null; },
          update() {},
          fetchUpdates() { return Promise.resolve({}); },
          submit() {
            const digits = mounted ? mounted.input.value.replace(/\\D/g, '') : '';
            if (digits.length < 16) return Promise.resolve({ error: { type: 'validation_error', code: 'incomplete_number', message: 'カード番号が不完全です。' } });
            return Promise.resolve({});
          },
          on() {}, off() {},
        };
        return elements;
      },
      async confirmPayment(opts) {
        const clientSecret = (opts && opts.clientSecret) || (opts && opts.elements && opts.elements._clientSecret);
        const card = mounted ? mounted.input.value.replace(/\\D/g, '') : '';
        if (card.length < 16) return { error: { type: 'validation_error', code: 'incomplete_number', message: 'カード番号が不完全です。' } };
        const res = await fetch(confirmUrl, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: JSON.stringify({ clientSecret, card }) });
        return res.json();
      },
      async retrievePaymentIntent(clientSecret) {
        const res = await fetch(confirmUrl, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: JSON.stringify({ clientSecret, retrieve: true }) });
        return res.json();
      },
    };
    return stripe;
  }
  Stripe.version = 'endive';
  window.Stripe = Stripe;
})();`;

/** The PaymentIntent id inside a client secret (`pi_…_secret_…`). */
const intentOf = (clientSecret: string) => clientSecret.split('_secret_')[0]!;

/**
 * Serves the stand-in Stripe.js to every page of `context` and settles its
 * confirmations at `fake`. Returns what the pages confirmed, for assertions.
 */
export async function installStripeJsFake(
  context: BrowserContext,
  fake: StripeFake,
): Promise<{ confirmed: string[] }> {
  const confirmed: string[] = [];
  await context.route('https://js.stripe.com/**', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/javascript',
      body: STRIPE_JS,
    }),
  );
  await context.route(CONFIRM_URL, async (route) => {
    const { clientSecret, card, retrieve } = JSON.parse(
      route.request().postData() ?? '{}',
    ) as { clientSecret: string; card?: string; retrieve?: boolean };
    const id = intentOf(clientSecret);
    const current = fake.state.paymentIntents.get(id);
    const answer = (body: unknown) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        headers: { 'Access-Control-Allow-Origin': '*' },
        body: JSON.stringify(body),
      });
    if (!current || current.client_secret !== clientSecret)
      return answer({
        error: {
          type: 'invalid_request_error',
          code: 'resource_missing',
          message: 'No such payment_intent',
        },
      });
    if (retrieve) return answer({ paymentIntent: current });
    confirmed.push(id);
    if (card === CARD_DECLINED.replace(/\s/g, '')) {
      const { object } = await fake.fail(id);
      return answer({
        error: {
          type: 'card_error',
          code: 'card_declined',
          decline_code: 'generic_decline',
          message: 'カードが拒否されました。',
          payment_intent: object,
        },
      });
    }
    const { object } = await fake.succeed(id);
    return answer({ paymentIntent: object });
  });
  return { confirmed };
}
