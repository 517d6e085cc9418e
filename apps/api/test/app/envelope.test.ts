import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { ERRORS } from '@proam/contract';
import { call, harness, harnessSuite } from '../helper.js';

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const LEAK =
  /(at \w+ \(|node_modules|relation "|SQLSTATE|\/home\/|\/work\/|\/tmp\/|pglite|drizzle|TypeError|stack)/i;

function assertNg(
  r: {
    status: number;
    json: Record<string, unknown>;
    res: { headers: Record<string, unknown> };
  },
  code: keyof typeof ERRORS,
) {
  assert.equal(r.status, ERRORS[code].http, JSON.stringify(r.json));
  assert.equal(r.json.status, 'NG');
  assert.equal(r.json.code, code);
  assert.match(String(r.json.reqId), ULID);
  assert.equal(r.res.headers['x-request-id'], r.json.reqId);
  assert.ok(
    String(r.json.msg).startsWith(ERRORS[code].msg),
    String(r.json.msg),
  );
  assert.deepEqual(Object.keys(r.json).sort(), [
    'code',
    'msg',
    'reqId',
    'status',
  ]);
  assert.doesNotMatch(JSON.stringify(r.json), LEAK);
}

describe('envelopes and the error handler', () => {
  const suite = harnessSuite('pglite');

  it('wraps success as {status, reqId, body} with X-Request-Id, no-store and unique ids', async () => {
    const a = await call(suite.h.app, '/news/readAll', {});
    const b = await call(suite.h.app, '/news/readAll', {});
    assert.equal(a.status, 200);
    assert.deepEqual(Object.keys(a.json).sort(), ['body', 'reqId', 'status']);
    assert.equal(a.json.status, 'OK');
    assert.match(String(a.json.reqId), ULID);
    assert.equal(a.res.headers['x-request-id'], a.json.reqId);
    assert.notEqual(a.json.reqId, b.json.reqId);
    assert.equal(a.res.headers['cache-control'], 'no-store');
    assert.match(
      String(a.res.headers['content-type']),
      /^application\/json; charset=utf-8/,
    );
  });

  it('answers unknown paths with 404 NotFound and a wrong method with 405', async () => {
    assertNg(await call(suite.h.app, '/no/such/thing', {}), 'NotFound');
    const get = await suite.h.app.inject({
      method: 'GET',
      url: '/api/news/readAll',
    });
    assertNg(
      { status: get.statusCode, json: get.json(), res: get },
      'MethodNotAllowed',
    );
    assert.equal(get.headers.allow, 'POST');
    const del = await suite.h.app.inject({
      method: 'DELETE',
      url: '/api/contact/create',
    });
    assert.equal(del.statusCode, 405);
  });

  it('rejects unknown body fields instead of stripping them', async () => {
    const r = await call(suite.h.app, '/news/readAll', {
      size: 2,
      role: 'admin',
    });
    assertNg(r, 'ValidationError');
    assert.equal(r.json.msg, `${ERRORS.ValidationError.msg}（role）`);
  });

  it('never coerces body types', async () => {
    assertNg(
      await call(suite.h.app, '/news/readAll', { size: '2' }),
      'ValidationError',
    );
    assertNg(
      await call(suite.h.app, '/news/read', { id: 123 }),
      'ValidationError',
    );
    assertNg(
      await call(suite.h.app, '/news/readAll', { size: true }),
      'ValidationError',
    );
  });

  it('takes inputs from the query, and the body wins over the query', async () => {
    const q = await call(suite.h.app, '/news/readAll', undefined, {
      query: 'size=1',
    });
    assert.equal(q.status, 200);
    assert.equal((q.json.body as unknown[]).length, 1);
    const both = await call(
      suite.h.app,
      '/news/readAll',
      { size: 3 },
      { query: 'size=1' },
    );
    assert.equal((both.json.body as unknown[]).length, 3);
    assertNg(
      await call(suite.h.app, '/news/readAll', undefined, {
        query: 'size=abc',
      }),
      'ValidationError',
    );
  });

  it('rejects duplicated query keys', async () => {
    assertNg(
      await call(suite.h.app, '/news/readAll', undefined, {
        query: 'size=1&size=2',
      }),
      'ValidationError',
    );
  });

  it('rejects NUL characters and lone surrogates, in body and query', async () => {
    assertNg(
      await call(suite.h.app, '/news/read', { id: 'a\u0000b' }),
      'ValidationError',
    );
    assertNg(
      await call(suite.h.app, '/news/read', undefined, { query: 'id=a%00b' }),
      'ValidationError',
    );
    assertNg(
      await call(suite.h.app, '/news/read', '{"id":"a\\ud800"}'),
      'ValidationError',
    );
    // The error names the field; a NUL in a field's name is refused too, naming none.
    const badValue = await call(suite.h.app, '/news/read', { id: 'a\u0000b' });
    assert.match(String(badValue.json.msg), /（id）$/);
    const badName = await call(suite.h.app, '/news/read', '{"i\\u0000d":"a"}');
    assertNg(badName, 'ValidationError');
    assert.doesNotMatch(String(badName.json.msg), /（/);
    const contact = await call(suite.h.app, '/contact/create', {
      name: '山田',
      email: 'a@example.jp',
      category: 'その他',
      message: 'x\u0000y',
    });
    assertNg(contact, 'ValidationError');
  });

  it('refuses malformed JSON, non-object bodies, prototype poisoning and non-JSON content types', async () => {
    assertNg(
      await call(suite.h.app, '/news/readAll', '{"size":'),
      'ValidationError',
    );
    assertNg(
      await call(suite.h.app, '/news/readAll', '[1,2]'),
      'ValidationError',
    );
    assertNg(
      await call(suite.h.app, '/news/readAll', '"text"'),
      'ValidationError',
    );
    assertNg(
      await call(
        suite.h.app,
        '/news/readAll',
        '{"__proto__":{"isAdmin":true}}',
      ),
      'ValidationError',
    );
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/xml',
    ]) {
      const r = await suite.h.app.inject({
        method: 'POST',
        url: '/api/news/readAll',
        headers: { 'content-type': type },
        payload: '{"size":1}',
      });
      assertNg(
        { status: r.statusCode, json: r.json(), res: r },
        'UnsupportedMediaType',
      );
    }
  });

  it('accepts an empty body with a JSON content type', async () => {
    const r = await call(suite.h.app, '/news/readAll', '');
    assert.equal(r.status, 200);
  });

  it('answers 413 PayloadTooLarge beyond the body limit', async () => {
    const big = JSON.stringify({
      name: 'x',
      email: 'a@example.jp',
      category: 'c',
      message: 'あ'.repeat(600_000),
    });
    assertNg(
      await call(suite.h.app, '/contact/create', big),
      'PayloadTooLarge',
    );
  });

  it('turns an unexpected failure into a generic 500 without internals, logged with the reqId', async () => {
    // A dropped table makes the database itself fail, as a real fault would.
    const h2 = await harness('pglite');
    try {
      await h2.database.pglite!.query('drop table news cascade');
      const r = await call(h2.app, '/news/readAll', {});
      assertNg(r, 'InternalError');
      assert.ok(
        h2.logs.some(
          (l) => l.includes(String(r.json.reqId)) && l.includes('"level":50'),
        ),
      );
    } finally {
      await h2.close();
    }
  });

  it('ignores a caller-supplied request id', async () => {
    const r = await call(
      suite.h.app,
      '/news/readAll',
      {},
      { headers: { 'request-id': '<script>', 'x-request-id': 'mine' } },
    );
    assert.match(String(r.json.reqId), ULID);
  });

  it('sends the API headers of docs/security.md HD-01..03 on answers and errors', async () => {
    const ok = await call(suite.h.app, '/news/readAll', {});
    const ng = await call(suite.h.app, '/user/read', { id: 'x' });
    assert.equal(ng.status, 401);
    // The router decodes percent-escapes: an encoded path is still an API call.
    const encoded = await suite.h.app.inject({
      method: 'POST',
      url: '/%61pi/news/readAll',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    assert.equal(encoded.statusCode, 200);
    for (const hd of [ok.res.headers, ng.res.headers, encoded.headers]) {
      assert.equal(
        hd['content-security-policy'],
        "default-src 'none'; frame-ancestors 'none'",
      );
      assert.equal(hd['cache-control'], 'no-store');
      assert.equal(hd['referrer-policy'], 'no-referrer');
      assert.equal(hd['x-content-type-options'], 'nosniff');
      assert.equal(hd['x-frame-options'], 'DENY');
      assert.equal(hd['cross-origin-resource-policy'], 'same-origin');
      assert.match(
        String(hd['strict-transport-security']),
        /^max-age=31536000; includeSubDomains$/,
      );
      assert.match(
        String(hd['content-type']),
        /^application\/json; charset=utf-8$/,
      );
      assert.equal(hd['x-powered-by'], undefined);
      // Page-only headers stay on pages (web.test.ts checks the SPA's policy).
      assert.equal(hd['cross-origin-opener-policy'], undefined);
    }
  });

  it('sends the SPA policy on everything outside /api', async () => {
    const r = await suite.h.app.inject({ method: 'GET', url: '/healthz' });
    const csp = String(r.headers['content-security-policy']);
    assert.ok(!csp.includes('stripe'), 'no Stripe sources without a key');
    for (const d of [
      "default-src 'self'",
      "script-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ])
      assert.ok(csp.includes(d), d);
    assert.equal(r.headers['x-content-type-options'], 'nosniff');
    assert.equal(r.headers['referrer-policy'], 'no-referrer');
    assert.equal(r.headers['x-frame-options'], 'DENY');
  });

  it('allows only configured CORS origins', async () => {
    const evil = await suite.h.app.inject({
      method: 'OPTIONS',
      url: '/api/news/readAll',
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
      },
    });
    assert.equal(evil.headers['access-control-allow-origin'], undefined);
    const app = await suite.h.app.inject({
      method: 'OPTIONS',
      url: '/api/news/readAll',
      headers: {
        origin: 'capacitor://localhost',
        'access-control-request-method': 'POST',
      },
    });
    assert.equal(
      app.headers['access-control-allow-origin'],
      'capacitor://localhost',
    );
    const post = await call(
      suite.h.app,
      '/news/readAll',
      {},
      { headers: { origin: 'capacitor://localhost' } },
    );
    assert.equal(
      post.res.headers['access-control-allow-origin'],
      'capacitor://localhost',
    );
    assert.equal(post.res.headers.vary, 'Origin');
    assert.match(
      String(post.res.headers['access-control-expose-headers']),
      /X-Request-Id/,
    );
    // Without an Origin there is no CORS: nothing to allow, but caches still key on Origin.
    const plain = await call(suite.h.app, '/news/readAll', {});
    assert.equal(plain.res.headers['access-control-allow-origin'], undefined);
    assert.equal(plain.res.headers['access-control-expose-headers'], undefined);
    assert.equal(plain.res.headers.vary, 'Origin');
  });

  it('logs request paths without query strings or secrets', async () => {
    const sentinel = `S3ntinel-${Date.now()}`;
    await call(suite.h.app, '/news/readAll', undefined, {
      query: `password=${sentinel}&size=1`,
    });
    await call(suite.h.app, '/news/read', { id: 'x', password: sentinel });
    await call(
      suite.h.app,
      '/news/readAll',
      {},
      { headers: { authorization: `Bearer ${sentinel}` } },
    );
    await call(suite.h.app, '/no/such', undefined, {
      query: `token=${sentinel}`,
    });
    const all = suite.h.logs.join('');
    assert.ok(all.includes('/api/news/readAll'), 'request lines are logged');
    assert.ok(!all.includes(sentinel), 'sentinel leaked into logs');
  });

  it('writes one access line per request, with its path, address, status, time and reqId', async () => {
    const r = await call(
      suite.h.app,
      '/news/read',
      { id: 'none' },
      {
        query: 'size=1',
      },
    );
    assertNg(r, 'ValidationError');
    const mine = suite.h.logs
      .filter((l) => l.includes(String(r.json.reqId)))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(
      mine.map((l) => l.msg),
      ['request completed'],
      'no "incoming request" line beside it',
    );
    const [line] = mine;
    assert.deepEqual(line!.req, {
      method: 'POST',
      url: '/api/news/read',
      remoteAddress: '127.0.0.1',
    });
    assert.deepEqual(line!.res, { statusCode: 400 });
    assert.equal(typeof line!.responseTime, 'number');
    assert.equal(line!.level, 30);
  });

  it('serves health and readiness checks', async () => {
    const live = await suite.h.app.inject({ method: 'GET', url: '/healthz' });
    assert.equal(live.statusCode, 200);
    const ready = await suite.h.app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(ready.statusCode, 200);
    assert.equal(ready.json().body.ready, true);
  });

  it('keeps the API description private unless API_DOCS is on', async () => {
    for (const url of ['/api/openapi.json', '/api/docs', '/api/docs/json']) {
      const r = await suite.h.app.inject({ method: 'GET', url });
      assert.equal(r.statusCode, 404, url);
      assert.equal(r.json().code, 'NotFound');
    }
  });

  it('publishes an OpenAPI document listing the calls where API_DOCS is on', async () => {
    const docs = await harness('pglite', { API_DOCS: 'true' });
    try {
      const r = await docs.app.inject({
        method: 'GET',
        url: '/api/openapi.json',
      });
      const doc = r.json<{ paths: Record<string, unknown> }>();
      for (const p of [
        '/api/news/read',
        '/api/news/readAll',
        '/api/competition/read',
        '/api/contact/create',
      ])
        assert.ok(doc.paths[p], p);
      // Swagger UI renders the same document.
      const ui = await docs.app.inject({ method: 'GET', url: '/api/docs/' });
      assert.equal(ui.statusCode, 200);
      assert.match(String(ui.headers['content-type']), /text\/html/);
      const json = await docs.app.inject({
        method: 'GET',
        url: '/api/docs/json',
      });
      assert.ok(
        json.json<{ paths: Record<string, unknown> }>().paths['/api/news/read'],
      );
    } finally {
      await docs.close();
    }
  });
});

describe('readiness without a database', () => {
  it('answers 503 ServiceUnavailable when the database does not answer', async () => {
    const h = await harness('pglite');
    try {
      await h.database.pglite!.close();
      const r = await h.app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(r.statusCode, 503);
      assert.equal(r.json().code, 'ServiceUnavailable');
    } finally {
      await h.app.close();
    }
  });
});

describe('closing', () => {
  it('answers an API call that arrives on an open connection after close() began with a 503 envelope', async () => {
    const h = await harness('pglite');
    try {
      await h.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = h.app.server.address() as { port: number };
      const sock = connect(port, '127.0.0.1');
      await new Promise((r) => sock.once('connect', r));
      let received = '';
      sock.on('data', (d: Buffer) => (received += d.toString('utf8')));
      const body = '{"size":1}';
      const head = `POST /api/news/readAll HTTP/1.1\r\nHost: proam.test\r\nOrigin: capacitor://localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
      // The first call is in flight (its body not sent yet) when the server starts closing,
      // so the connection is busy rather than idle and stays open for a second call.
      sock.write(head);
      await new Promise((r) => setTimeout(r, 50));
      const closing = h.app.close();
      await new Promise((r) => setTimeout(r, 50));
      sock.write(body + head + body);
      await new Promise((r) => sock.once('close', r));
      await closing;
      const answers = received.split(/(?=HTTP\/1\.1 )/);
      assert.equal(answers.length, 2, received);
      assert.match(answers[0]!, /^HTTP\/1\.1 200 /);
      assert.match(answers[1]!, /^HTTP\/1\.1 503 /);
      assert.match(answers[1]!, /\r\nConnection: close\r\n/i);
      assert.match(answers[1]!, /\r\nretry-after: 5\r\n/i);
      // The mobile app (another origin) must be able to read it.
      assert.match(
        answers[1]!,
        /\r\naccess-control-allow-origin: capacitor:\/\/localhost\r\n/i,
      );
      const ng = JSON.parse(answers[1]!.split('\r\n\r\n')[1]!) as {
        status: string;
        code: string;
        msg: string;
      };
      assert.equal(ng.status, 'NG');
      assert.equal(ng.code, 'ServiceUnavailable');
      assert.equal(ng.msg, ERRORS.ServiceUnavailable.msg);
    } finally {
      await h.close().catch(() => undefined);
    }
  });
});

describe('load shedding on the database queue', () => {
  it('answers 503 with Retry-After while more queries wait for a connection than SHED_DB_QUEUE, and serves again after', async () => {
    const h = await harness('pglite', { SHED_DB_QUEUE: '50' });
    try {
      const queued = h.database.queued;
      h.database.queued = () => 51;
      const shed = await call(h.app, '/news/readAll', {});
      assert.equal(shed.status, 503);
      assert.equal(shed.json.code, 'ServiceUnavailable');
      assert.equal(shed.res.headers['retry-after'], '5');
      // Liveness is not shed.
      assert.equal(
        (await h.app.inject({ method: 'GET', url: '/healthz' })).statusCode,
        200,
      );
      h.database.queued = () => 50;
      assert.equal((await call(h.app, '/news/readAll', {})).status, 200);
      h.database.queued = queued;
    } finally {
      await h.close();
    }
  });
});
