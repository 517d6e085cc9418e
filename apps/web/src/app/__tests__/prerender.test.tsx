import { act, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PaymentMode } from '@/app/prerendered-pages';
import { runtimeConfig } from '@/config/env';
import { loggedOut, tokenReceived } from '@/features/auth/auth-slice';
import { requestStarted } from '@/lib/ui-slice';
import { REFRESH_TOKEN_KEY } from '@/features/auth/token-storage';
import {
  MEMBER_TABS,
  PRERENDERED_PAGES,
  renderMemberTab,
  renderPage,
  renderPageIn,
} from '@/prerender';
import { createAuthUser, createLoginResult } from '@/testing/auth';
import { ws } from 'msw';
import { ng, ok, serveAll, server } from '@/testing/msw';
import { App } from '../app';
import { createAppRouter } from '../router';
import { asPrerendered, makeStore } from '../store';

beforeEach(() => {
  window.location.hash = '';
  // The landing page asks for news and competitions once hydrated.
  serveAll(() => ok([]));
});

afterEach(() => {
  document.body.innerHTML = '';
  localStorage.clear();
});

/** The handshake answers: the stored login, `type`'s, is confirmed. */
const confirmLogin = (
  store: ReturnType<typeof makeStore>,
  type: 'pro' | 'amature' | 'admin',
) =>
  act(async () => {
    store.dispatch(
      tokenReceived(createLoginResult({ user: createAuthUser({ type }) })),
    );
  });

/** Hydrates `html` as #root at `hash`; returns what React reported. */
const hydrateAt = async (
  hash: string,
  html: string,
  /** What happens to the store between its creation and hydration. */
  meanwhile: (store: ReturnType<typeof makeStore>) => void = () => {},
) => {
  window.location.hash = hash;
  const container = document.createElement('div');
  container.innerHTML = html;
  document.body.append(container);
  const heading = container.querySelector('h1');
  const recoverable = vi.fn();
  const consoleError = vi.spyOn(console, 'error');
  const store = makeStore();
  // As boot/start-app.ts: hydrated from the state the HTML was rendered with.
  const serverState = asPrerendered(store.getState());
  meanwhile(store);
  const router = createAppRouter();
  let root: ReturnType<typeof hydrateRoot> | undefined;
  await act(async () => {
    root = hydrateRoot(
      container,
      <StrictMode>
        <App store={store} router={router} serverState={serverState} />
      </StrictMode>,
      { onRecoverableError: recoverable },
    );
  });
  return {
    store,
    dispose: () => {
      act(() => root?.unmount());
      router.dispose();
    },
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
    result.dispose();
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
        result.dispose();
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

const memberTabs = MEMBER_TABS.flatMap((path) =>
  (['pro', 'amature', 'admin'] as const).map((type) => ({ path, type })),
);

describe("a returning member's tabs", () => {
  /** The member's browser: a stored login, every call in flight until `answer` (the chat socket connects and hears nothing). */
  const returningMember = () => {
    let answer = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    serveAll(async () => {
      await answered;
      return ng('NotFound');
    });
    server.use(ws.link('*/api/ws').addEventListener('connection', () => {}));
    localStorage.setItem(REFRESH_TOKEN_KEY, 'stored-refresh-token');
    return answer;
  };

  it.each(memberTabs)(
    '#/$path hydrates while the login is confirmed, and keeps its title block once it is ($type)',
    async ({ path, type }) => {
      let title = '';
      const html = await renderMemberTab(path, (t) => (title = t));
      expect(html).not.toMatch(/\sstyle="/);
      expect(html).not.toContain('<script');
      // A member's header (マイページ), the tab bar with this tab current.
      const parsed = document.createElement('div');
      parsed.innerHTML = html;
      expect(parsed.querySelector('.site-header')).toHaveTextContent(
        'マイページ',
      );
      expect(
        parsed.querySelector('.tab-bar [aria-current="page"]'),
      ).toHaveAttribute('href', `#/${path}`);
      const shellHeader = parsed.querySelector('.title-block')?.textContent;
      expect(shellHeader).toBeTruthy();

      // The browser of a member whose login is stored; the tab's own calls
      // stay in flight, as they do while its data loads.
      const answer = returningMember();
      const result = await hydrateAt(`#/${path}`, html);
      try {
        expect(result.recoverable).not.toHaveBeenCalled();
        expect(result.consoleError).not.toHaveBeenCalled();
        expect(result.headingKept).toBe(true);
        expect(document.title).toBe(title);
        expect(title).toMatch(/ \| ProAm Connect$/);

        // The login is confirmed, whoever it is: the tab's own page says the same.
        await confirmLogin(result.store, type);
        const header = result.container.querySelector('.title-block');
        expect(header?.textContent).toBe(shellHeader);
        expect(result.container).not.toHaveTextContent(
          'ログイン状態を確認しています',
        );
      } finally {
        result.dispose();
        answer();
      }
    },
  );

  it('hydrates without a mismatch when the login was confirmed, and a call started, before the app hydrated', async () => {
    const answer = returningMember();
    const html = await renderMemberTab('tabs/schedule');
    const shellHeader = (() => {
      const parsed = document.createElement('div');
      parsed.innerHTML = html;
      return parsed.querySelector('.title-block')?.textContent;
    })();
    localStorage.setItem(REFRESH_TOKEN_KEY, 'stored-refresh-token');
    const result = await hydrateAt('#/tabs/schedule', html, (store) => {
      store.dispatch(requestStarted());
      store.dispatch(
        tokenReceived(
          createLoginResult({ user: createAuthUser({ type: 'pro' }) }),
        ),
      );
    });
    try {
      expect(result.recoverable).not.toHaveBeenCalled();
      expect(result.consoleError).not.toHaveBeenCalled();
      // Then the app caught up with the store: the pro's page, and the spinner.
      expect(result.container.querySelector('.title-block')?.textContent).toBe(
        shellHeader,
      );
      expect(result.container).not.toHaveTextContent(
        'ログイン状態を確認しています',
      );
      expect(
        result.container.querySelector('[data-testid="global-spinner"]'),
      ).not.toBeNull();
    } finally {
      result.dispose();
      answer();
    }
  });

  /** A returning member opens `path`: its prerendered tab, hydrated. */
  const returningTo = async (path: string) => {
    const answer = returningMember();
    const result = await hydrateAt(`#/${path}`, await renderMemberTab(path));
    return { result, answer };
  };

  it('hydrates with a trailing slash in the address, and in a browser that starts offline', async () => {
    const answer = returningMember();
    const html = await renderMemberTab('tabs/schedule');
    const slash = await hydrateAt('#/tabs/schedule/', html);
    expect(slash.recoverable).not.toHaveBeenCalled();
    expect(slash.headingKept).toBe(true);
    slash.dispose();
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    try {
      const offline = await hydrateAt('#/tabs/schedule', html);
      expect(offline.recoverable).not.toHaveBeenCalled();
      expect(offline.consoleError).not.toHaveBeenCalled();
      offline.dispose();
    } finally {
      online.mockRestore();
      answer();
    }
  });

  it('keeps the tab bar, and focus in it, once the login is confirmed', async () => {
    const { result, answer } = await returningTo('tabs/schedule');
    try {
      const link = result.container.querySelector<HTMLElement>(
        '.tab-bar a[href="#/tabs/likes"]',
      )!;
      link.focus();
      await confirmLogin(result.store, 'amature');
      expect(result.container).not.toHaveTextContent(
        'ログイン状態を確認しています',
      );
      expect(link.isConnected).toBe(true);
      expect(document.activeElement).toBe(link);
    } finally {
      result.dispose();
      answer();
    }
  });

  it('leaves the member area at once on a logout (only the confirmed login is deferred)', async () => {
    const { result, answer } = await returningTo('tabs/profile');
    const env = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
    try {
      await confirmLogin(result.store, 'amature');
      expect(result.container.querySelector('.tab-bar')).not.toBeNull();
      // Outside act, as the browser runs it: the first render after the
      // logout, in a microtask, already leaves the member area.
      env.IS_REACT_ACT_ENVIRONMENT = false;
      result.store.dispatch(loggedOut());
      await Promise.resolve();
      await Promise.resolve();
      expect(result.container.querySelector('.tab-bar')).toBeNull();
    } finally {
      env.IS_REACT_ACT_ENVIRONMENT = true;
      result.dispose();
      answer();
    }
  });

  it('are the same whatever the settings (no template of theirs is dropped)', async () => {
    const defaults = { ...runtimeConfig };
    const built = await Promise.all(
      MEMBER_TABS.map((path) => renderMemberTab(path)),
    );
    try {
      Object.assign(runtimeConfig, {
        companyName: '株式会社テスト運営',
        stripePublishableKey: 'pk_test_other',
      });
      const now = await Promise.all(
        MEMBER_TABS.map((path) => renderMemberTab(path)),
      );
      expect(now).toEqual(built);
    } finally {
      Object.assign(runtimeConfig, defaults);
    }
  });
});
