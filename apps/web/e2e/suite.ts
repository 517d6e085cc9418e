import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, openPage } from './browser.ts';
import { SCREENSHOT_DIR } from './helpers.ts';
import { startMailPeer, type MailPeer } from './mail-peer.ts';
import { startServer, type TestServer } from './server.ts';

export { DEMO_PASSWORD, SCREENSHOT_DIR } from './helpers.ts';

/** A page of its own context, with the errors it has logged so far. */
export type OpenedPage = Awaited<ReturnType<typeof openPage>>;

/**
 * A spec file's own real server and Chromium: started before its tests,
 * stopped after them. Read `server`/`browser`/`mail` only inside tests or
 * hooks. `mail`: a loopback SMTP peer receives the server's mail (null when
 * testing a server started elsewhere, E2E_BASE_URL). `env`: more server
 * settings, asked for just before the server starts (it may start what they
 * point at).
 */
export function serverAndBrowser(
  options: {
    mail?: boolean;
    env?: () => Record<string, string> | Promise<Record<string, string>>;
  } = {},
) {
  const suite = { mail: null } as {
    server: TestServer;
    browser: Browser;
    mail: MailPeer | null;
    openPage(width: number): ReturnType<typeof openPage>;
    withPage: typeof withPage;
  };
  suite.openPage = (width) => openPage(suite.browser, width);
  /**
   * Runs `test` on a fresh page `width` px wide, then checks that the page
   * logged no console or page errors (but those `allow` accepts: the ones a
   * test provokes on purpose), and closes it whatever happened.
   */
  const withPage = async (
    width: number,
    test: (opened: OpenedPage) => Promise<void>,
    options: { allow?: (error: string) => boolean } = {},
  ) => {
    const opened = await suite.openPage(width);
    try {
      await test(opened);
      const { allow } = options;
      assert.deepEqual(
        allow ? opened.errors.filter((e) => !allow(e)) : opened.errors,
        [],
      );
    } finally {
      await opened.context.close();
    }
  };
  suite.withPage = withPage;
  before(async () => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    if (options.mail && !process.env.E2E_BASE_URL)
      suite.mail = await startMailPeer();
    const env = {
      ...(await options.env?.()),
      ...(suite.mail ? { SMTP_URL: suite.mail.url } : {}),
    };
    suite.server = await startServer({ env });
    suite.browser = await launchBrowser();
  });
  after(async () => {
    await suite.browser?.close();
    await suite.server?.stop();
    await suite.mail?.stop();
  });
  return suite;
}
