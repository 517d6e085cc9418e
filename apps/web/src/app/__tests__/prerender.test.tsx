import { act, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PaymentMode } from '@/app/prerendered-pages';
import { runtimeConfig } from '@/config/env';
import { PRERENDERED_PAGES, renderPage, renderPageIn } from '@/prerender';
import { ok, serveAll } from '@/testing/msw';
import { App } from '../app';
import { createAppRouter } from '../router';
import { makeStore } from '../store';

beforeEach(() => {
  window.location.hash = '';
  // The landing page asks for news and competitions once hydrated.
  serveAll(() => ok([]));
});

afterEach(() => {
  document.body.innerHTML = '';
});

/** Hydrates `html` as #root at `hash`; returns what React reported. */
const hydrateAt = async (hash: string, html: string) => {
  window.location.hash = hash;
  const container = document.createElement('div');
  container.innerHTML = html;
  document.body.append(container);
  const heading = container.querySelector('h1');
  const recoverable = vi.fn();
  const consoleError = vi.spyOn(console, 'error');
  const store = makeStore();
  const router = createAppRouter();
  await act(async () => {
    hydrateRoot(
      container,
      <StrictMode>
        <App store={store} router={router} />
      </StrictMode>,
      { onRecoverableError: recoverable },
    );
  });
  router.dispose();
  return {
    container,
    recoverable,
    consoleError,
    headingKept: heading !== null && container.querySelector('h1') === heading,
  };
};

describe('prerendered landing page', () => {
  it('is the landing page with hash links and no inline styles (CSP)', async () => {
    const html = await renderPage('');
    expect(html).toContain('id="hero-title"');
    expect(html).toContain('href="#/auth/register"');
    expect(html).not.toMatch(/\shref="\/[a-z]/);
    expect(html).not.toMatch(/\sstyle="/);
    expect(html).not.toContain('<script');
  });

  it('hydrates in the browser without a mismatch, then fills in what only the browser knows', async () => {
    const result = await hydrateAt('', await renderPage(''));
    expect(result.recoverable).not.toHaveBeenCalled();
    expect(result.consoleError).not.toHaveBeenCalled();
    // Hydration kept the prerendered nodes instead of drawing new ones.
    expect(result.headingKept).toBe(true);
    expect(
      result.container.querySelector('.site-footer__copy'),
    ).toHaveTextContent(new RegExp(`© ${new Date().getFullYear()} \\S+`));
  });
});

/** Each page's HTML as the build writes it: one per payment mode where it depends on it. */
const variants = PRERENDERED_PAGES.flatMap<{
  path: string;
  mode: PaymentMode | null;
}>((p) =>
  p.payment
    ? (['at-course', 'online'] as const).map((mode) => ({ ...p, mode }))
    : [{ ...p, mode: null }],
);

describe('prerendered pages besides the landing', () => {
  it.each(variants)(
    '#/$path ($mode) hydrates without a mismatch, keeping the prerendered nodes',
    async ({ path, mode }) => {
      const key = runtimeConfig.stripePublishableKey;
      let title = '';
      const onTitle = (t: string) => (title = t);
      const html = mode
        ? await renderPageIn(path, mode, onTitle)
        : await renderPage(path, onTitle);
      expect(html).not.toMatch(/\sstyle="/);
      expect(html).not.toContain('<script');
      // A form's controls are disabled until the app runs them: nothing
      // typed then could be lost, and the browser cannot send the form.
      const parsed = document.createElement('div');
      parsed.innerHTML = html;
      const controls = parsed.querySelectorAll('form, input, textarea, select');
      for (const control of controls)
        expect(control.closest('fieldset[disabled]'), path).not.toBeNull();
      runtimeConfig.stripePublishableKey =
        mode === 'online' ? 'pk_test_1' : null;
      try {
        const result = await hydrateAt(`#/${path}`, html);
        expect(result.recoverable).not.toHaveBeenCalled();
        expect(result.consoleError).not.toHaveBeenCalled();
        expect(result.headingKept).toBe(true);
        // Hydrated: the controls work.
        expect(result.container.querySelector('fieldset[disabled]')).toBeNull();
        // The title the page sets once running, learnt with its HTML.
        expect(title).toMatch(/ \| ProAm Connect$/);
        expect(document.title).toBe(title);
      } finally {
        runtimeConfig.stripePublishableKey = key;
      }
    },
  );

  it('changes with the settings exactly where a page is marked', async () => {
    const defaults = { ...runtimeConfig };
    const built = new Map<string, string>();
    for (const { path } of PRERENDERED_PAGES)
      built.set(path, await renderPage(path));
    const changedPages = async () => {
      const changed: string[] = [];
      for (const { path } of PRERENDERED_PAGES)
        if ((await renderPage(path)) !== built.get(path)) changed.push(path);
      return changed;
    };
    let company: string[];
    let payment: string[];
    try {
      Object.assign(runtimeConfig, {
        companyName: '株式会社テスト運営',
        companyAddress: '〒999-9999 どこか',
        companyPhone: '099-999-9999',
        companyRepresentative: '試験 花子',
        companyMail: 'ops@example.com',
      });
      company = await changedPages();
      Object.assign(runtimeConfig, defaults, {
        stripePublishableKey: 'pk_test_other',
      });
      payment = await changedPages();
    } finally {
      Object.assign(runtimeConfig, defaults);
    }
    const marked = (flag: 'company' | 'payment') =>
      PRERENDERED_PAGES.filter((p) => p[flag]).map((p) => p.path);
    expect(company).toEqual(marked('company'));
    expect(payment).toEqual(marked('payment'));
  });
});
