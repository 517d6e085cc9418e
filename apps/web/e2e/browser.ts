import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** The flags every Chromium of the tests and audits runs with. */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Debian's Chromium, with the flags this closed network needs (a closed network: no updates, no QUIC). */
export const launchBrowser = (): Promise<Browser> =>
  chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });

/** A fresh Japanese-locale context and page that records console errors and page errors. */
export const openPage = async (browser: Browser, width: number) => {
  const context = await browser.newContext({
    viewport: { width, height: 900 },
    locale: 'ja-JP',
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${m.text()} @ ${m.location().url}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  return { page, context, errors };
};
