import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import {
  spawnServer,
  type ServerOptions,
} from '../../../../test-support/server-process.js';
import { newPglite } from '../../src/db/pglite.js';
import { assertRefusesSetting, configLoader } from '../helper.js';

/** The server from its sources (no build needed), logging warnings only. */
const fromSource = (options: ServerOptions) =>
  spawnServer({ entry: 'src', ...options });

describe('the server process', () => {
  it('holds DATA_DIR: a second server on the same folder refuses to start; SIGTERM drains and releases it', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'proam-lock-'));
    const env = { DATA_DIR: dataDir, SEED_DEMO: 'false' };
    const first = await fromSource({ env });
    try {
      await first.waitReady();
      const second = await fromSource({ env });
      const code = await second.exited;
      assert.equal(code, 73);
      assert.match(
        second.output(),
        /DATA_DIR .* is in use by another ProAm Connect server/,
      );
      // The first one still serves.
      const r = await fetch(`${first.origin}/api/news/readAll`, {
        method: 'POST',
      });
      assert.equal(r.status, 200);

      const stopped = first.stop();
      // The grace period: no longer ready, still answering.
      await new Promise((r) => setTimeout(r, 200));
      assert.equal((await fetch(`${first.origin}/readyz`)).status, 503);
      const during = await fetch(`${first.origin}/api/news/readAll`, {
        method: 'POST',
      });
      assert.equal(during.status, 200);
      assert.equal(await stopped, 0);
      assert.deepEqual(
        readdirSync(dataDir).filter((n) => n.startsWith('server.lock')),
        [],
        'the lock is released',
      );
    } finally {
      await first.kill();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("warns at start when the pro search's trigram index is missing (pg_trgm not installable)", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'proam-trgm-'));
    const env = { DATA_DIR: dataDir, SEED_DEMO: 'false' };
    const warning = /The pro search's keyword index \(pg_trgm\) is missing/;
    try {
      const first = await fromSource({ env });
      await first.waitReady();
      assert.doesNotMatch(first.output(), warning);
      assert.equal(await first.stop(), 0);
      // As on a PostgreSQL where the migration could not install pg_trgm.
      const db = newPglite(path.join(dataDir, 'pgdata'));
      await db.exec('drop index pro_search_text_trgm_idx');
      await db.close();
      const second = await fromSource({ env });
      try {
        await second.waitReady();
        assert.match(second.output(), warning);
      } finally {
        await second.kill();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  // The kernel caps a listener's queue at net.core.somaxconn (4096 on Linux
  // from 5.4 on); at 511 or less the setting cannot show.
  const somaxconn = Number(
    readFileSync('/proc/sys/net/core/somaxconn', 'utf8'),
  );
  it(
    'holds a burst of connections beyond Node’s default queue of 511 (listen backlog 4096) while it accepts none',
    {
      skip:
        somaxconn <= 511 &&
        `net.core.somaxconn is ${somaxconn}: no queue can exceed Node's 511`,
    },
    async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'proam-backlog-'));
      const server = await fromSource({
        env: { DATA_DIR: dataDir, SEED_DEMO: 'false' },
      });
      const sockets: Socket[] = [];
      try {
        await server.waitReady();
        // Stopped, the server accepts nothing: the kernel alone completes
        // handshakes, as many as the listener's queue holds (one more, in
        // fact). The others' SYNs are dropped, and so are their retries, as
        // the queue stays full: the wait only needs to outlast a busy test
        // process.
        server.child.kill('SIGSTOP');
        const connected = await Promise.all(
          Array.from(
            { length: 1000 },
            () =>
              new Promise<boolean>((resolve) => {
                const socket = connect(server.port, '127.0.0.1');
                sockets.push(socket);
                const timer = setTimeout(() => resolve(false), 3000);
                socket.once('connect', () => {
                  clearTimeout(timer);
                  resolve(true);
                });
                socket.once('error', () => resolve(false));
              }),
          ),
        );
        const opened = connected.filter(Boolean).length;
        // 512 with Node's default backlog.
        assert.ok(opened >= 900, `${opened} of 1,000 connections opened`);
      } finally {
        for (const socket of sockets) socket.destroy();
        server.child.kill('SIGCONT');
        await server.kill();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );

  it('stops at start-up with a message naming a bad setting', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'proam-cfg-'));
    try {
      const bad = await fromSource({
        env: { DATA_DIR: dataDir, PORT: 'eighty' },
      });
      assert.equal(await bad.exited, 78);
      assert.match(bad.output(), /PORT/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('configuration', () => {
  const load = configLoader('proam-conf-');

  it('has working defaults', () => {
    const c = load({});
    assert.equal(c.port, 3000);
    assert.equal(c.host, '127.0.0.1');
    assert.equal(c.databaseUrl, null);
    assert.deepEqual(c.apiClients, [{ name: 'web', code: 'proam-web-dev' }]);
    assert.equal(c.mediaBaseUrl, '/media/');
    assert.equal(c.seedDemo, null);
    assert.deepEqual(c.corsOrigins, [
      'capacitor://localhost',
      'https://localhost',
    ]);
    assert.equal(c.metricsToken, null, '/metrics is off by default');
    assert.equal(c.metricsPort, null);
    assert.ok(c.jwtSecret.length >= 32);
    assert.equal(
      load({}).jwtSecret,
      c.jwtSecret,
      'the generated secret is kept in DATA_DIR',
    );
  });

  it('names the setting that is wrong', () => {
    const bad: [Record<string, string>, string][] = [
      [{ PORT: '70000' }, 'PORT'],
      [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
      [{ SMTP_URL: 'http://mail' }, 'SMTP_URL'],
      [{ API_CLIENTS: 'web' }, 'API_CLIENTS'],
      [{ JWT_SECRET: 'short' }, 'JWT_SECRET'],
      [{ SEED_DEMO: 'maybe' }, 'SEED_DEMO'],
      [{ CONTACT_TO: 'nobody' }, 'CONTACT_TO'],
      [{ MEDIA_BASE_URL: 'cdn.example.jp' }, 'MEDIA_BASE_URL'],
      [{ STRIPE_PUBLISHABLE_KEY: 'sk_live_secret' }, 'STRIPE_PUBLISHABLE_KEY'],
      [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
      [{ CORS_ORIGINS: '*' }, 'CORS_ORIGINS'],
      [{ CORS_ORIGINS: 'app.example.jp' }, 'CORS_ORIGINS'],
      [{ CORS_ORIGINS: 'https://app.example.jp/path' }, 'CORS_ORIGINS'],
      [{ METRICS_TOKEN: 'short' }, 'METRICS_TOKEN'],
      [{ METRICS_TOKEN: 'has a space in it, sixteen+' }, 'METRICS_TOKEN'],
      [{ METRICS_PORT: '9100x' }, 'METRICS_PORT'],
      [{ METRICS_PORT: '70000' }, 'METRICS_PORT'],
      [{ PORT: '9100', METRICS_PORT: '9100' }, 'METRICS_PORT'],
    ];
    for (const [env, name] of bad) assertRefusesSetting(load, env, name);
  });

  it('keeps PUBLIC_URL without a trailing slash, so links are never //#/…', () => {
    assert.equal(
      load({ PUBLIC_URL: 'https://proam.example.jp/app/' }).publicUrl,
      'https://proam.example.jp/app',
    );
    assert.equal(
      load({ PUBLIC_URL: 'https://proam.example.jp' }).publicUrl,
      'https://proam.example.jp',
    );
  });

  it("adds CORS_ORIGINS to the native apps' origins instead of replacing them", () => {
    assert.deepEqual(
      load({
        CORS_ORIGINS:
          ' https://partner.example.jp/ ,capacitor://localhost,,http://127.0.0.1:5173',
      }).corsOrigins,
      [
        'capacitor://localhost',
        'https://localhost',
        'https://partner.example.jp',
        'http://127.0.0.1:5173',
      ],
    );
  });

  it('reads the metrics settings', () => {
    const c = load({
      METRICS_TOKEN: 'scrape-token-0123456789',
      METRICS_PORT: '9464',
    });
    assert.equal(c.metricsToken, 'scrape-token-0123456789');
    assert.equal(c.metricsPort, 9464);
  });

  it('reads the production settings', () => {
    const c = load({
      DATABASE_URL: 'postgres://u@db/proam',
      SMTP_URL: 'smtps://u:p@mail.example.jp',
      API_CLIENTS: 'web:abcdefgh,ios:ijklmnop',
      SEED_DEMO: 'false',
      COMPANY_NAME: '株式会社テスト',
      MEDIA_BASE_URL: 'https://cdn.example.jp/',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_abc123',
    });
    assert.equal(c.databaseUrl, 'postgres://u@db/proam');
    assert.equal(c.apiClients.length, 2);
    assert.equal(c.seedDemo, false);
    assert.equal(c.companyName, '株式会社テスト');
    assert.equal(c.stripePublishableKey, 'pk_test_abc123');
  });
});
