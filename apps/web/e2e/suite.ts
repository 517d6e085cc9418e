import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { launchBrowser, openPage } from './browser.ts';
import { startServer, type TestServer } from './server.ts';

/** The seeded demo members' password (README: demo logins). */
export const DEMO_PASSWORD = 'proam-demo-2026';

export const SCREENSHOT_DIR = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'screenshots',
);

/**
 * A spec file's own real server and Chromium: started before its tests,
 * stopped after them. Read `server`/`browser` only inside tests or hooks.
 */
export function serverAndBrowser() {
  const suite = {} as {
    server: TestServer;
    browser: Browser;
    openPage(width: number): ReturnType<typeof openPage>;
  };
  suite.openPage = (width) => openPage(suite.browser, width);
  before(async () => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    suite.server = await startServer();
    suite.browser = await launchBrowser();
  });
  after(async () => {
    await suite.browser?.close();
    await suite.server?.stop();
  });
  return suite;
}
