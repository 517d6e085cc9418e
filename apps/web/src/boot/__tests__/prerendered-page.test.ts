import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHECKIN_KEY, REFRESH_TOKEN_KEY } from '@/features/auth/token-storage';
import { holdActivations, prerenderedPathOf } from '../prerendered-page';

const LANDING = '<main class="site-main"><h1>landing</h1></main>';
const START = '/assets/react-1.js /assets/state-1.js';

/** public/deep-link.js, as index.html's head runs it (src: `document.currentScript`). */
const DEEP_LINK = readFileSync(
  path.resolve(__dirname, '../../../public/deep-link.js'),
  'utf8',
);

let readyState: DocumentReadyState = 'loading';

/** Runs deep-link.js at `hash` while the document is "loading", then finishes parsing. */
const openAt = (
  hash: string,
  whileParsing = () => {},
  stateAtRun: DocumentReadyState = 'loading',
) => {
  window.location.hash = hash;
  readyState = stateAtRun;
  const script = document.createElement('script');
  script.dataset.start = START;
  script.dataset.pages = 'event auth/register info';
  script.dataset.memberPages = 'tabs/schedule tabs/chat';
  Object.defineProperty(document, 'currentScript', {
    configurable: true,
    get: () => script,
  });
  // A classic script in the page's scope, as the browser runs it.
  new Function(DEEP_LINK)();
  Object.defineProperty(document, 'currentScript', {
    configurable: true,
    get: () => null,
  });
  if (stateAtRun !== 'loading') return;
  whileParsing();
  readyState = 'interactive';
  document.dispatchEvent(new Event('readystatechange'));
};

const preloads = () =>
  [
    ...document.head.querySelectorAll<HTMLLinkElement>(
      'link[rel=modulepreload]',
    ),
  ].map((l) => new URL(l.href).pathname);

beforeEach(() => {
  vi.spyOn(document, 'readyState', 'get').mockImplementation(() => readyState);
  document.body.innerHTML = `<div id="root" data-prerendered="">${LANDING}</div>
<template data-page="event" data-title="イベント日程・結果 | ProAm Connect"><main class="site-main"><h1>event</h1></main></template>
<template data-page="auth/register"><main class="site-main"><h1>register</h1></main></template>
<template data-page="tabs/schedule" data-member data-title="スケジュール | ProAm Connect"><main class="site-main"><h1>schedule</h1></main></template>`;
});

afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = '';
  document.head.innerHTML = '';
  document.documentElement.classList.remove('deep-link', 'member');
  localStorage.clear();
  window.location.hash = '';
});

const root = () => document.getElementById('root')!;

describe('prerenderedPathOf', () => {
  it('names the page whose HTML fits the address', () => {
    expect(prerenderedPathOf('')).toBe('');
    expect(prerenderedPathOf('#/')).toBe('');
    expect(prerenderedPathOf('#/event')).toBe('event');
    expect(prerenderedPathOf('#/auth/register/')).toBe('auth/register');
    // A query may change what the page renders.
    expect(prerenderedPathOf('#/info?page=2')).toBeNull();
  });
});

describe('public/deep-link.js', () => {
  it("puts the page's HTML in place of the landing page's once parsed, and lets it paint", () => {
    openAt('#/event');
    expect(root().querySelector('h1')).toHaveTextContent('event');
    expect(root().getAttribute('data-prerendered')).toBe(
      prerenderedPathOf('#/event'),
    );
    expect(document.documentElement).not.toHaveClass('deep-link');
    expect(document.title).toBe('イベント日程・結果 | ProAm Connect');
    // The app's code comes with the entry, after the page has painted.
    expect(preloads()).toEqual([]);
  });

  it('puts the page in place at once when run after the document was parsed', () => {
    openAt('#/event', () => {}, 'interactive');
    expect(root().querySelector('h1')).toHaveTextContent('event');
  });

  it('reads the address as prerenderedPathOf does', () => {
    openAt('#/auth/register/');
    expect(root().getAttribute('data-prerendered')).toBe(
      prerenderedPathOf('#/auth/register/'),
    );
  });

  it('preloads the app once parsed where the server dropped the page', () => {
    openAt('#/info', () => expect(preloads()).toEqual([]));
    expect(root().querySelector('h1')).toHaveTextContent('landing');
    expect(document.documentElement).toHaveClass('deep-link');
    expect(preloads()).toEqual(START.split(' '));
  });

  it('hides the landing page and preloads the app from the head elsewhere', () => {
    for (const hash of ['#/tabs/schedule', '#/event?x=1', '#/contact']) {
      openAt(hash, () => expect(preloads()).toEqual(START.split(' ')));
      expect(root().querySelector('h1')).toHaveTextContent('landing');
      expect(root().getAttribute('data-prerendered')).toBe('');
      expect(document.documentElement).toHaveClass('deep-link');
      expect(preloads()).toEqual(START.split(' '));
      document.head.innerHTML = '';
    }
  });

  it('leaves a member (stored login or check-in) to the app', () => {
    for (const key of [REFRESH_TOKEN_KEY, CHECKIN_KEY]) {
      localStorage.setItem(key, 'x');
      openAt('#/event');
      expect(root().querySelector('h1')).toHaveTextContent('landing');
      expect(preloads()).toEqual(START.split(' '));
      localStorage.clear();
      document.head.innerHTML = '';
    }
  });

  it("puts a returning member's tab in place for a stored login", () => {
    localStorage.setItem(REFRESH_TOKEN_KEY, 'x');
    openAt('#/tabs/schedule');
    expect(root().querySelector('h1')).toHaveTextContent('schedule');
    expect(root().getAttribute('data-prerendered')).toBe('tabs/schedule');
    expect(root().hasAttribute('data-member')).toBe(true);
    expect(document.title).toBe('スケジュール | ProAm Connect');
    expect(document.documentElement).not.toHaveClass('deep-link');
    // Its header is the member's: the visitor's ログイン link is not there to hide.
    expect(document.documentElement).not.toHaveClass('member');
    expect(preloads()).toEqual([]);
  });

  it("leaves a member tab to the app without a stored login, without the tab's template, or elsewhere", () => {
    const cases: [string, string][] = [
      // A buyer's check-in record alone is no login.
      ['#/tabs/schedule', CHECKIN_KEY],
      // A tab the build names but whose template the page lacks.
      ['#/tabs/chat', REFRESH_TOKEN_KEY],
      // Not a tab with a title block, or a public page for a member.
      ['#/tabs/likes/pro/1', REFRESH_TOKEN_KEY],
      ['#/event', REFRESH_TOKEN_KEY],
    ];
    for (const [hash, key] of cases) {
      localStorage.setItem(key, 'x');
      openAt(hash);
      expect(root().querySelector('h1'), hash).toHaveTextContent('landing');
      expect(root().hasAttribute('data-member')).toBe(false);
      expect(preloads()).toEqual(START.split(' '));
      localStorage.clear();
      document.head.innerHTML = '';
    }
  });

  it('gives a visitor no member tab', () => {
    openAt('#/tabs/schedule');
    expect(root().querySelector('h1')).toHaveTextContent('landing');
    expect(preloads()).toEqual(START.split(' '));
  });

  it('does nothing on the landing page', () => {
    openAt('');
    expect(document.documentElement).not.toHaveClass('deep-link');
    expect(document.documentElement).not.toHaveClass('member');
    expect(preloads()).toEqual([]);
  });

  it('marks a member on every address, the landing page included, so that the visitor’s ログイン link stays hidden', () => {
    for (const key of [REFRESH_TOKEN_KEY, CHECKIN_KEY])
      for (const hash of ['', '#/event', '#/tabs/admin']) {
        localStorage.setItem(key, 'x');
        openAt(hash);
        expect(document.documentElement).toHaveClass('member');
        localStorage.clear();
        document.documentElement.classList.remove('deep-link', 'member');
        document.head.innerHTML = '';
      }
    openAt('#/tabs/schedule');
    expect(document.documentElement).not.toHaveClass('member');
  });
});

describe('holdActivations', () => {
  let release: (() => void) | null = null;
  afterEach(() => release?.());

  it('holds a click on a button or an in-page link until the app runs, then makes it again', () => {
    root().innerHTML =
      '<button type="button">menu</button><a href="#qa-fees">fees</a><a href="#/about">about</a>';
    const button = root().querySelector('button')!;
    const inPage =
      root().querySelector<HTMLAnchorElement>('a[href="#qa-fees"]')!;
    const seen = vi.fn((e: Event) => e.defaultPrevented);
    button.addEventListener('click', seen);
    inPage.addEventListener('click', seen);
    release = holdActivations(document);

    button.click();
    inPage.click();
    // Neither reached the page, and the in-page link left the address alone.
    expect(seen).not.toHaveBeenCalled();
    expect(window.location.hash).not.toBe('#qa-fees');

    // The last one held is made again once the app has rendered.
    inPage.addEventListener('click', (e) => e.preventDefault());
    release();
    release = null;
    expect(seen).toHaveBeenCalledTimes(1);
    expect(seen.mock.calls[0]![0].target).toBe(inPage);
    button.click();
    expect(seen).toHaveBeenCalledTimes(2);
  });

  it('lets links to other pages go as they are', () => {
    root().innerHTML = '<a href="#/about">about</a>';
    release = holdActivations(document);
    const link = root().querySelector('a')!;
    const event = new MouseEvent('click', { bubbles: true, cancelable: true });
    link.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(false);
  });
});
