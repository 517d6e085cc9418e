import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LazyRequestLogger } from '../../src/app.js';
import { call, harnessSuite } from '../helper.js';

/**
 * The request's logger (LazyRequestLogger in app.ts) is pino's child only once
 * the request logs: a call that logs nothing through it makes no child, and a
 * line it does log still carries the call's reqId and the redaction.
 */
describe('the request logger', () => {
  const suite = harnessSuite('pglite');

  /** Counts the children made of the app's logger while `run` runs. */
  async function childrenMade(run: () => Promise<void>): Promise<number> {
    const log = suite.h.app.log;
    const child = log.child.bind(log);
    let made = 0;
    log.child = (...args: Parameters<typeof child>) => {
      made += 1;
      return child(...args);
    };
    try {
      await run();
    } finally {
      log.child = child;
    }
    return made;
  }

  it('makes no child logger for calls that log nothing through it', async () => {
    // The access line's own logger is made on the first call.
    await call(suite.h.app, '/news/readAll', {});
    const made = await childrenMade(async () => {
      for (let i = 0; i < 5; i++) {
        const r = await call(suite.h.app, '/news/readAll', {});
        assert.equal(r.json.status, 'OK');
      }
    });
    assert.equal(made, 0);
    // The access lines are still written, one per call, with their reqId.
    const access = suite.h.logs.filter((l) =>
      l.includes('"msg":"request completed"'),
    );
    assert.ok(access.length >= 6, `${access.length} access lines`);
    assert.ok(access.every((l) => /"reqId":"[0-9A-Z]{26}"/.test(l)));
  });

  it('logs a line through the request with its reqId, redacted', async () => {
    let reqId = '';
    const made = await childrenMade(async () => {
      // Malformed JSON: Fastify's parser refuses it, and the error handler
      // logs the refusal through req.log (plugins/errors.ts).
      const r = await call(
        suite.h.app,
        '/news/readAll',
        '{"token":"secret-value",',
      );
      assert.equal(r.json.status, 'NG');
      reqId = String(r.json.reqId);
    });
    assert.equal(made, 1);
    const line = suite.h.logs.find(
      (l) => l.includes('"msg":"request refused"') && l.includes(reqId),
    );
    assert.ok(line, `no "request refused" line for ${reqId}`);
    assert.match(line, /"level":30/);
    assert.doesNotMatch(suite.h.logs.join(''), /secret-value/);
  });

  it('writes nothing, and makes no child, below the logger’s level', async () => {
    const log = suite.h.app.log as ConstructorParameters<
      typeof LazyRequestLogger
    >[0];
    const before = suite.h.logs.length;
    let logger: LazyRequestLogger | undefined;
    const made = await childrenMade(async () => {
      logger = new LazyRequestLogger(log, { reqId: 'LAZY-1' });
      // The harness logs at info: debug and trace are below it.
      logger.debug({ detail: 1 }, 'not written');
      logger.trace('not written either');
      assert.equal(logger.level, 'info');
    });
    assert.equal(made, 0);
    assert.equal(suite.h.logs.length, before);
    logger!.warn({ input: { password: 'hunter2' } }, 'written');
    const line = suite.h.logs.at(-1) ?? '';
    assert.match(line, /"reqId":"LAZY-1"/);
    assert.match(line, /"msg":"written"/);
    assert.doesNotMatch(line, /hunter2/);
  });

  it('writes below the app’s level once the request’s own level is lowered, as a pino child does', () => {
    const log = suite.h.app.log as ConstructorParameters<
      typeof LazyRequestLogger
    >[0];
    const logger = new LazyRequestLogger(log, { reqId: 'LAZY-2' });
    logger.level = 'debug';
    assert.equal(logger.level, 'debug');
    logger.debug('now written');
    const line = suite.h.logs.at(-1) ?? '';
    assert.match(line, /"reqId":"LAZY-2"/);
    assert.match(line, /"level":20/);
    // The app's own level is untouched.
    assert.equal(suite.h.app.log.level, 'info');
  });
});
