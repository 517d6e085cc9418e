/**
 * The native (Capacitor) bundle against the real server.
 * `vite build --mode native` bakes in the API origin and the app's own client
 * (`ios:…`, added to the server's API_CLIENTS), and the bundle is served from
 * a second origin by a tiny static server, as the shell serves it from the
 * device: every API call, the refresh and the chat socket must cross to the
 * API's origin with the ios client's credentials. Chromium cannot load
 * capacitor://localhost, so the static origin stands in for it through
 * CORS_ORIGINS (the native origins are always admitted, apps/api config.ts).
 * Runs with its own server; expects `npm run build` (the API) to have run.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Request, WebSocket } from 'playwright-core';
import {
  apiCall,
  apiLogin,
  heading1,
  settle,
  shootBoth,
  submitLogin,
  waitForSplash,
} from './helpers.ts';
import { serverAndBrowser } from './suite.ts';

const WEB_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
);
const IOS_CLIENT = 'ios:e2e-native-ios-code';
const IOS_AUTH = `Basic ${Buffer.from(IOS_CLIENT).toString('base64')}`;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/** Serves `root` as the shell would: files only, index.html for `/`. */
const startStaticServer = async (root: string) => {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const rel = url.pathname === '/' ? 'index.html' : url.pathname.slice(1);
    const file = path.join(root, path.normalize(rel));
    let body: Buffer | null = null;
    try {
      if (file.startsWith(root) && statSync(file).isFile())
        body = readFileSync(file);
    } catch {
      body = null;
    }
    if (!body) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res
      .writeHead(200, {
        'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      })
      .end(body);
  });
  await new Promise<void>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve()),
  );
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

/** `vite build --mode native` into `outDir`, with the PROAM_* variables. */
const buildNativeBundle = (outDir: string, apiOrigin: string) => {
  const vite = path.join(
    path.dirname(
      createRequire(path.join(WEB_DIR, 'package.json')).resolve(
        'vite/package.json',
      ),
    ),
    'bin/vite.js',
  );
  const run = spawnSync(
    process.execPath,
    [vite, 'build', '--mode', 'native', '--outDir', outDir, '--emptyOutDir'],
    {
      cwd: WEB_DIR,
      encoding: 'utf8',
      env: {
        ...process.env,
        PROAM_API_ORIGIN: apiOrigin,
        PROAM_API_CLIENT: IOS_CLIENT,
        VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true',
      },
    },
  );
  assert.equal(
    run.status,
    0,
    `native build failed:\n${run.stdout}${run.stderr}`,
  );
};

const bundleDir = mkdtempSync(path.join(tmpdir(), 'proam-native-'));
let bundle: Awaited<ReturnType<typeof startStaticServer>>;

const suite = serverAndBrowser({
  env: async () => {
    bundle = await startStaticServer(bundleDir);
    return {
      API_CLIENTS: `web:proam-web-dev,${IOS_CLIENT}`,
      // Stands in for capacitor://localhost, which Chromium cannot load.
      CORS_ORIGINS: bundle.origin,
    };
  },
});

type Seen = { url: string; method: string; authorization: string | null };

describe('the native bundle from another origin', () => {
  // Inside the describe: runs after the suite's server has started.
  before(() => buildNativeBundle(bundleDir, suite.server.baseUrl));
  after(async () => {
    await bundle?.stop();
    rmSync(bundleDir, { recursive: true, force: true });
  });

  it('logs in as ama1, keeps the login across a reload and chats, all at the API origin as the ios client', async () => {
    await suite.withPage(375, async ({ page }) => {
      const api = suite.server.baseUrl;
      const seen: Promise<Seen>[] = [];
      page.on('request', (req: Request) =>
        seen.push(
          req
            .allHeaders()
            .catch(() => ({}) as Record<string, string>)
            .then((h) => ({
              url: req.url(),
              method: req.method(),
              authorization: h.authorization ?? null,
            })),
        ),
      );
      const requests = () => Promise.all(seen);
      // The member's socket opens with the login, whatever the page.
      const sockets: WebSocket[] = [];
      page.on('websocket', (ws) => sockets.push(ws));

      // The bundle has no meta config to fill: the server never sees it.
      const html = readFileSync(path.join(bundleDir, 'index.html'), 'utf8');
      assert.ok(
        !html.includes(api),
        'the API origin is in the code, not the page',
      );

      await page.goto(`${bundle.origin}/#/auth`);
      await heading1(page, 'ログイン').waitFor();
      await waitForSplash(page);
      await shootBoth(page, 'native-bundle-login', { settle: true });
      await submitLogin(page, 'ama1@example.jp');
      await heading1(page, 'スケジュール').waitFor();

      let all = await requests();
      const login = all.find((r) => r.url.endsWith('/api/auth/login'));
      assert.deepEqual(login, {
        url: `${api}/api/auth/login`,
        method: 'POST',
        authorization: IOS_AUTH,
      });
      // Outside a native shell the token stays in the page's storage (the
      // Keychain path is covered by token-storage.test.ts).
      const first = await page.evaluate(() =>
        localStorage.getItem('refresh_token'),
      );
      assert.ok(first);

      // The handshake restores the login through the API origin.
      await page.reload();
      await heading1(page, 'スケジュール').waitFor();
      await page.waitForFunction((old) => {
        const now = localStorage.getItem('refresh_token');
        return now !== null && now !== old;
      }, first);
      all = await requests();
      const handshake = all.filter((r) =>
        r.url.endsWith('/api/auth/handshake'),
      );
      assert.ok(handshake.length > 0, 'the reload renewed the login');
      for (const r of handshake) {
        assert.equal(r.url, `${api}/api/auth/handshake`);
        assert.equal(r.authorization, `Bearer ${first}`);
      }

      // The chat: the socket opens at the API origin, a message goes out
      // and comes back over it.
      await waitForSplash(page);
      await page
        .getByRole('navigation', { name: '会員メニュー' })
        .getByRole('link', { name: 'チャット' })
        .click();
      await heading1(page, 'チャット').waitFor();
      const item = page.locator('.chat-list a').first();
      await item.waitFor();
      await item.click();
      await page.locator('.composer textarea').waitFor();
      // The one opened since the reload (the first page's went with it).
      const ws = sockets.at(-1)!;
      assert.equal(
        ws.url(),
        `${api.replace(/^http:/, 'ws:')}/api/ws`,
        'the chat socket goes to the API origin',
      );
      for (const w of sockets) assert.equal(w.url(), ws.url());
      const lessonId = new URL(page.url()).hash.split('/').pop()!;
      await settle(page);

      const text = `ネイティブから送信 ${Date.now() % 100000}`;
      const pushed = ws.waitForEvent('framereceived', {
        predicate: (f) =>
          typeof f.payload === 'string' && f.payload.includes(text),
        timeout: 10_000,
      });
      const box = page.getByRole('textbox', { name: 'メッセージ' });
      await box.fill(text);
      await box.press('Enter');
      await page.locator('.message--mine', { hasText: text }).waitFor();
      const frame = JSON.parse((await pushed).payload as string) as {
        type: string;
        body: { partitionKey: string; msg: string };
      };
      assert.equal(frame.type, 'message');
      assert.equal(frame.body.partitionKey, lessonId);
      assert.equal(frame.body.msg, text);
      // The chat room fills the window: shoot the window, not the page.
      await shootBoth(page, 'native-bundle-chat', { fullPage: false });

      // Stored on the server for the other participants.
      const member = await apiLogin(api, 'ama1@example.jp');
      const messages = await apiCall<{ msg: string }[]>(
        api,
        '/roundLesson/getMessage',
        { partitionKey: lessonId },
        member,
      );
      assert.ok(messages.some((m) => m.msg === text));

      // Every API call went to the API's origin as the ios client; none to
      // the bundle's own origin.
      all = await requests();
      const toBundle = all.filter(
        (r) =>
          r.url.startsWith(`${bundle.origin}/api`) ||
          r.url.startsWith(`${bundle.origin}/media`),
      );
      assert.deepEqual(toBundle, []);
      const apiCalls = all.filter(
        (r) => r.url.startsWith(`${api}/api/`) && r.method === 'POST',
      );
      assert.ok(apiCalls.length >= 4, JSON.stringify(apiCalls));
      // Client calls carry the ios credentials, the others a bearer token.
      for (const r of apiCalls)
        assert.match(
          r.authorization ?? '',
          r.url.endsWith('/auth/login') ? /^Basic / : /^Bearer /,
          r.url,
        );
    });
  });
});
