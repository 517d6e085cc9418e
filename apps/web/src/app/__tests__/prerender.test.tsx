import { act, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderLanding } from '@/prerender';
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

describe('prerendered landing page', () => {
  it('is the landing page with hash links and no inline styles (CSP)', async () => {
    const html = await renderLanding();
    expect(html).toContain('id="hero-title"');
    expect(html).toContain('href="#/auth/register"');
    expect(html).not.toMatch(/\shref="\/[a-z]/);
    expect(html).not.toMatch(/\sstyle="/);
    expect(html).not.toContain('<script');
  });

  it('hydrates in the browser without a mismatch, then fills in what only the browser knows', async () => {
    const html = await renderLanding();
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const hero = container.querySelector('#hero-title');
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

    expect(recoverable).not.toHaveBeenCalled();
    expect(consoleError).not.toHaveBeenCalled();
    // Hydration kept the prerendered nodes instead of drawing new ones.
    expect(container.querySelector('#hero-title')).toBe(hero);
    expect(container.querySelector('.site-footer__copy')).toHaveTextContent(
      new RegExp(`© ${new Date().getFullYear()} \\S+`),
    );
    router.dispose();
  });
});
