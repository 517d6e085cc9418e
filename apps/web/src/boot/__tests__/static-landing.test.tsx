import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CloseIcon } from '@/components/icons';
import { renderPage } from '@/prerender';
import {
  CLOSE_ICON_PATH,
  isLandingHash,
  runStaticLanding,
  type StartApp,
} from '../static-landing';

/** Stands in for the browser's observer: jsdom has none, and without one the page starts the app at once. */
class FakeObserver {
  static instances: FakeObserver[] = [];
  targets: Element[] = [];
  constructor(readonly callback: IntersectionObserverCallback) {
    FakeObserver.instances.push(this);
  }
  observe(el: Element) {
    this.targets.push(el);
  }
  disconnect() {
    this.targets = [];
  }
  /** Reports the first target as within reach. */
  reach() {
    const target = this.targets[0]!;
    this.callback(
      [
        {
          isIntersecting: true,
          target,
        } as unknown as IntersectionObserverEntry,
      ],
      this as unknown as IntersectionObserver,
    );
  }
}

let prerendered = '';
let root: HTMLElement;

beforeEach(async () => {
  window.location.hash = '';
  FakeObserver.instances = [];
  vi.stubGlobal('IntersectionObserver', FakeObserver);
  prerendered ||= await renderPage('');
  root = document.createElement('div');
  root.id = 'root';
  root.setAttribute('data-prerendered', '');
  root.innerHTML = prerendered;
  document.body.append(root);
});

afterEach(() => {
  // Earlier pages' listeners stay on document but act only on their own root.
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
});

/** A stand-in app: records its start, renders when the test says so. */
const fakeApp = () => {
  let render = () => {};
  const rendered = new Promise<void>((r) => (render = r));
  const calls: { beforeRenderDone: boolean }[] = [];
  const startApp: StartApp = async ({ beforeRender }) => {
    const call = { beforeRenderDone: false };
    calls.push(call);
    await beforeRender();
    call.beforeRenderDone = true;
    await rendered;
  };
  return { startApp, calls, render };
};

const flush = () => new Promise((r) => setTimeout(r, 0));
const toggle = () =>
  root.querySelector<HTMLButtonElement>('.site-header__toggle')!;
const nav = () => root.querySelector<HTMLElement>('.site-nav')!;

describe('static landing page', () => {
  it('recognises the landing addresses as deep-link.js does', () => {
    for (const hash of ['', '#', '#/', '#/?ref=x', '#?a'])
      expect(isLandingHash(hash)).toBe(true);
    for (const hash of ['#/about', '#main', '#/tabs/schedule'])
      expect(isLandingHash(hash)).toBe(false);
  });

  it('draws the menu toggle with the same close icon as the app', () => {
    expect(renderToString(<CloseIcon />)).toContain(`d="${CLOSE_ICON_PATH}"`);
  });

  it('does not load the app until it is needed, and fills in the footer', () => {
    const app = fakeApp();
    runStaticLanding(app.startApp);
    expect(app.calls).toHaveLength(0);
    expect(root.querySelector('.site-footer__copy')).toHaveTextContent(
      new RegExp(`© ${new Date().getFullYear()} \\S+`),
    );
  });

  it('opens the menu without the app and hydrates only once it is closed again, on the prerendered DOM', async () => {
    const app = fakeApp();
    runStaticLanding(app.startApp);
    toggle().click();
    expect(toggle()).toHaveAttribute('aria-expanded', 'true');
    expect(nav()).toHaveClass('is-open');
    expect(toggle().querySelector('path')).toHaveAttribute(
      'd',
      CLOSE_ICON_PATH,
    );
    await flush();
    expect(app.calls).toEqual([{ beforeRenderDone: false }]);

    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    expect(toggle()).toHaveAttribute('aria-expanded', 'false');
    expect(document.activeElement).toBe(toggle());
    await flush();
    expect(app.calls).toEqual([{ beforeRenderDone: true }]);
    // What hydration meets is exactly the prerendered HTML.
    const built = document.createElement('div');
    built.innerHTML = prerendered;
    expect(root.innerHTML === built.innerHTML).toBe(true);
  });

  it('holds a link activated before the app is there and activates it again after', async () => {
    const app = fakeApp();
    runStaticLanding(app.startApp);
    const link = root.querySelector<HTMLAnchorElement>('a[href="#/promenu"]')!;
    const seen: boolean[] = [];
    // Where React would listen: the root, below the page's document listener.
    root.addEventListener('click', (e) => seen.push(e.defaultPrevented));
    link.click();
    expect(window.location.hash).toBe('');
    expect(seen).toEqual([]);
    expect(app.calls).toHaveLength(1);

    app.render();
    await flush();
    await flush();
    // The app's own handling gets the activation.
    expect(seen).toEqual([false]);
  });

  it('loads the app when the sections filled from the API near the viewport', async () => {
    const app = fakeApp();
    runStaticLanding(app.startApp);
    const [observer] = FakeObserver.instances;
    expect(observer?.targets[0]).toBe(
      document.getElementById('latest-news')?.closest('section'),
    );
    // The footer too, for a jump straight past the sections.
    expect(observer?.targets).toContain(root.querySelector('.site-footer'));
    observer!.reach();
    await flush();
    expect(app.calls).toHaveLength(1);
  });
});
