import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, openPage } from './browser.ts';
import { SCREENSHOT_DIR } from './helpers.ts';
import { startMailPeer, type MailPeer } from './mail-peer.ts';
import { startServer, type TestServer } from './server.ts';

export { DEMO_PASSWORD, SCREENSHOT_DIR } from './helpers.ts';

/** A page of its own context, with the errors it has logged so far. */
export type OpenedPage = Awaited<ReturnType<typeof openPage>>;

/** A failed test's page: its address, a screenshot, and the text of any open dialog. */
async function shownOnFailure(
  page: OpenedPage['page'],
  width: number,
): Promise<string> {
  const file = path.join(SCREENSHOT_DIR, `failed-${width}-${Date.now()}.png`);
  await page.screenshot({ path: file, fullPage: true });
  const dialogs = await page.locator('dialog[open]').allInnerTexts();
  return `page ${page.url()}, screenshot ${file}${dialogs.length ? `, open dialogs: ${JSON.stringify(dialogs)}` : ''}`;
}

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
    } catch (err) {
      // What the page showed: a dialog in the way of a click, say, appears in
      // a timeout's message only as "intercepts pointer events".
      const shown = await shownOnFailure(opened.page, width).catch(
        (e: unknown) => `(no screenshot: ${String(e)})`,
      );
      if (err instanceof Error) {
        err.message += `\n${shown}`;
        // Reporters print the stack, written when the error was made.
        err.stack = `${err.stack ?? ''}\n${shown}`;
      }
      throw err;
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
