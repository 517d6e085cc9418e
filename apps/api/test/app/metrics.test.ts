import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { mailOutbox } from '../../src/db/schema.js';
import { openPglite } from '../../src/db/database.js';
import {
  DRIVERS,
  harness,
  harnessSuite,
  memberSuite,
  memberTokens,
  signIn,
  type Harness,
} from '../helper.js';

const TOKEN = 'metrics-token-0123456789abcdef';
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** The value of one sample line (`name{labels} value`), or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`${series} `) && !l.startsWith('#'));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function scrape(h: Harness) {
  const r = await h.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: auth(TOKEN),
  });
  assert.equal(r.statusCode, 200, r.body);
  return r.body;
}

describe('metrics: off unless configured', () => {
  const suite = harnessSuite('pglite');

  it('answers /metrics 404 like any unknown path, token or not', async () => {
    for (const headers of [{}, auth(TOKEN)]) {
      const r = await suite.h.app.inject({
        method: 'GET',
        url: '/metrics',
        headers,
      });
      assert.equal(r.statusCode, 404);
      assert.doesNotMatch(r.body, /http_request_duration_seconds/);
    }
    assert.equal(suite.h.app.metrics.exposed, false);
    assert.equal(suite.h.app.metrics.port(), null);
  });
});

for (const driver of DRIVERS) {
  describe(`metrics behind METRICS_TOKEN (${driver})`, () => {
    const suite = memberSuite(driver, { METRICS_TOKEN: TOKEN });
    const { tok, ids } = suite;

    it('refuses a scrape without the token or with a wrong one (401)', async () => {
      const wrong = [
        {},
        auth('metrics-token-0123456789abcdeX'),
        auth(`${TOKEN}x`),
        { authorization: TOKEN },
        { authorization: `Basic ${TOKEN}` },
      ];
      for (const headers of wrong) {
        const r = await suite.h.app.inject({
          method: 'GET',
          url: '/metrics',
          headers,
        });
        assert.equal(r.statusCode, 401, JSON.stringify(headers));
        assert.doesNotMatch(r.body, /http_request_duration_seconds/);
      }
    });

    it('counts the shared cache’s hits and loads, and the rows it holds', async () => {
      const before = await scrape(suite.h);
      const hits0 =
        sample(before, 'proam_shared_cache_reads_total{result="hit"}') ?? 0;
      const loads0 =
        sample(before, 'proam_shared_cache_reads_total{result="load"}') ?? 0;
      for (let i = 0; i < 2; i++) {
        const r = await suite.h.app.inject({
          method: 'POST',
          url: '/api/users/pro/condition',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${tok.ama1}`,
          },
          payload: JSON.stringify({ area: '東京都', sort: 'likes' }),
        });
        assert.equal(r.statusCode, 200, r.body);
      }
      const text = await scrape(suite.h);
      // The first search loads the page and who is in a block; the second hits both.
      assert.equal(
        sample(text, 'proam_shared_cache_reads_total{result="load"}'),
        loads0 + 2,
      );
      assert.equal(
        sample(text, 'proam_shared_cache_reads_total{result="hit"}'),
        hits0 + 2,
      );
      assert.ok((sample(text, 'proam_shared_cache_rows') ?? 0) >= 2);
    });

    it('times requests by route pattern, method and status, never by raw URL', async () => {
      for (let i = 0; i < 3; i++) {
        const r = await suite.h.app.inject({
          method: 'POST',
          // The same route by another spelling: still one series.
          url: i === 2 ? '/api/user/%72ead' : '/api/user/read',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${tok.ama1}`,
          },
          payload: JSON.stringify({ id: ids.pro1 }),
        });
        assert.equal(r.statusCode, 200, r.body);
      }
      await suite.h.app.inject({
        method: 'POST',
        url: '/api/no-such-route-4711',
      });
      const text = await scrape(suite.h);
      assert.match(
        String(
          (
            await suite.h.app.inject({
              method: 'GET',
              url: '/metrics',
              headers: auth(TOKEN),
            })
          ).headers['content-type'],
        ),
        /^text\/plain; version=0\.0\.4/,
      );
      const route = 'route="/api/user/read",method="POST",status_code="200"';
      assert.equal(
        sample(text, `http_request_duration_seconds_count{${route}}`),
        3,
      );
      assert.equal(
        sample(
          text,
          `http_request_duration_seconds_bucket{le="+Inf",${route}}`,
        ),
        3,
      );
      assert.ok(
        (sample(text, `http_request_duration_seconds_sum{${route}}`) ?? -1) > 0,
      );
      assert.equal(
        sample(
          text,
          'http_request_duration_seconds_count{route="unmatched",method="POST",status_code="404"}',
        ),
        1,
      );
      assert.doesNotMatch(text, /no-such-route-4711|%72ead/);
    });

    it('counts logins and login failures', async () => {
      const before = await scrape(suite.h);
      const failures = (t: string) =>
        sample(t, 'proam_login_failures_total{code="InvalidCredentials"}') ?? 0;
      const logins = (t: string) => sample(t, 'proam_logins_total') ?? 0;
      assert.equal(
        (
          await signIn(
            suite.h.app,
            'ama1@example.jp',
            'wrong-password-123',
            '10.9.0.1',
          )
        ).status,
        401,
      );
      assert.equal((await signIn(suite.h.app, 'ama2@example.jp')).status, 200);
      const now = await scrape(suite.h);
      assert.equal(failures(now), failures(before) + 1);
      assert.equal(logins(now), logins(before) + 1);
    });

    it('reports the outbox backlog, the database pool, sockets and the event loop', async () => {
      const base =
        sample(await scrape(suite.h), 'proam_mail_outbox_depth') ?? NaN;
      assert.ok(Number.isInteger(base), 'depth present');
      // A queued mail created 2 minutes ago, due in an hour so no worker takes it meanwhile.
      const now = suite.h.app.clock.now();
      await suite.h.database.db.insert(mailOutbox).values({
        id: `METRICSTEST${driver}`.padEnd(26, '0'),
        category: 'contact',
        toAddress: 'ops@example.jp',
        subject: 'metrics',
        body: 'metrics',
        status: 'queued',
        nextAttemptAt: new Date(now.getTime() + 3_600_000),
        createdAt: new Date(now.getTime() - 120_000),
      });
      const text = await scrape(suite.h);
      assert.equal(sample(text, 'proam_mail_outbox_depth'), base + 1);
      const age = sample(text, 'proam_mail_outbox_oldest_age_seconds') ?? 0;
      assert.ok(age >= 120 && age < 3600, `oldest age ${age}`);

      const max = sample(text, 'proam_db_pool_connections{state="max"}');
      assert.equal(max, driver === 'pglite' ? 1 : 5);
      assert.ok(
        sample(text, 'proam_db_pool_connections{state="in_use"}')! >= 0,
      );
      assert.equal(sample(text, 'proam_db_pool_waiting'), 0);
      assert.equal(sample(text, `proam_db_info{driver="${driver}"}`), 1);
      assert.equal(sample(text, 'proam_websocket_sockets'), 0);
      assert.ok(sample(text, 'nodejs_eventloop_lag_seconds')! >= 0);
      assert.ok(sample(text, 'nodejs_eventloop_lag_p99_seconds')! >= 0);
      assert.ok(sample(text, 'process_resident_memory_bytes')! > 0);
    });
  });
}

describe('metrics on METRICS_PORT', () => {
  let h: Harness;
  let metricsUrl: string;
  let closed = false;
  before(async () => {
    // 0: a free port, read back from the app.
    h = await harness('pglite', { METRICS_PORT: '0' });
    metricsUrl = `http://127.0.0.1:${h.app.metrics.port()}`;
  });
  after(() => (closed ? undefined : h.close()));

  it('serves /metrics there without a token, and nothing else; the main port has no /metrics', async () => {
    assert.ok(h.app.metrics.port()! > 0);
    await h.app.inject({ method: 'POST', url: '/api/news/readAll' });
    const r = await fetch(`${metricsUrl}/metrics`);
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^text\/plain/);
    const text = await r.text();
    assert.equal(
      sample(
        text,
        'http_request_duration_seconds_count{route="/api/news/readAll",method="POST",status_code="200"}',
      ),
      1,
    );
    assert.equal((await fetch(`${metricsUrl}/api/news/readAll`)).status, 404);
    assert.equal(
      (await fetch(`${metricsUrl}/metrics`, { method: 'POST' })).status,
      405,
    );
    const main = await h.app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(main.statusCode, 404);
  });

  it('counts the WebSocket sockets open', async () => {
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = h.app.server.address() as { port: number };
    const { tok } = await memberTokens(h);
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/ws`, [
      'proam',
      `bearer.${tok.ama1}`,
    ]);
    await new Promise<void>((resolve, reject) => {
      ws.once('message', () => resolve());
      ws.once('error', reject);
    });
    const open = await (await fetch(`${metricsUrl}/metrics`)).text();
    assert.equal(sample(open, 'proam_websocket_sockets'), 1);
    const closed = new Promise((r) => ws.once('close', r));
    ws.close();
    await closed;
    // The server side sees the close a moment later.
    let after = NaN;
    for (let i = 0; i < 50 && after !== 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
      after =
        sample(
          await (await fetch(`${metricsUrl}/metrics`)).text(),
          'proam_websocket_sockets',
        ) ?? NaN;
    }
    assert.equal(after, 0);
  });

  it('closes the listener with the app', async () => {
    const port = h.app.metrics.port();
    closed = true;
    await h.close();
    await assert.rejects(fetch(`http://127.0.0.1:${port}/metrics`));
  });
});

describe('PGlite pool figures', () => {
  it('shows one operation running and the rest waiting their turn', async () => {
    const db = await openPglite();
    try {
      assert.deepEqual(db.poolStats(), {
        max: 1,
        open: 1,
        inUse: 0,
        waiting: 0,
      });
      const running = Array.from({ length: 5 }, () =>
        db.pglite!.query('select 1'),
      );
      assert.deepEqual(db.poolStats(), {
        max: 1,
        open: 1,
        inUse: 1,
        waiting: 4,
      });
      await Promise.all(running);
      assert.equal(db.poolStats().waiting, 0);
      assert.equal(db.poolStats().inUse, 0);
    } finally {
      await db.close();
    }
  });
});
