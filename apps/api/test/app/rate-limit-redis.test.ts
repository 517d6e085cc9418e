import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import { call, harness, type Harness } from '../helper.js';

/** The machine's Redis (CI starts one); the pressure suite uses the same. */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const contact = {
  name: '山田 太郎',
  email: 'taro@example.jp',
  phone: '',
  category: 'その他',
  message: 'レート制限の共有を確かめるテストです。',
};

/** A fresh client address per run: counters in Redis outlive the process (10 minutes here). */
const randomAddress = () =>
  `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

describe('rate limits across instances (REDIS_URL)', () => {
  let a: Harness;
  let b: Harness;
  let memA: Harness;
  let memB: Harness;
  before(async () => {
    const env = { REDIS_URL, LOG_LEVEL: 'silent' };
    [a, b, memA, memB] = await Promise.all([
      harness('pglite', env),
      harness('pglite', env),
      harness('pglite', { LOG_LEVEL: 'silent' }),
      harness('pglite', { LOG_LEVEL: 'silent' }),
    ]);
  });
  after(async () => {
    await Promise.all([a, b, memA, memB].map((h) => h.close()));
  });

  it('two instances with the same REDIS_URL share one budget', async () => {
    const ip = randomAddress();
    // /contact/create allows 5 per 10 minutes per address: 3 on one instance, 2 on the other.
    for (const [i, h] of [a, b, a, b, a].entries()) {
      const r = await call(h.app, '/contact/create', contact, {
        remoteAddress: ip,
      });
      assert.equal(r.status, 200, `call ${i + 1} is within the budget`);
    }
    for (const h of [b, a]) {
      const r = await call(h.app, '/contact/create', contact, {
        remoteAddress: ip,
      });
      assert.equal(r.status, 429);
      assert.equal(r.json.code, 'TooManyRequests');
      assert.ok(Number(r.res.headers['retry-after']) > 0);
    }
    // Another address has its own budget on either instance.
    const other = await call(b.app, '/contact/create', contact, {
      remoteAddress: randomAddress(),
    });
    assert.equal(other.status, 200);
  });

  it('without REDIS_URL each instance counts alone (what the shared store fixes)', async () => {
    const ip = randomAddress();
    const statuses: number[] = [];
    for (const h of [memA, memB, memA, memB, memA, memB]) {
      statuses.push(
        (await call(h.app, '/contact/create', contact, { remoteAddress: ip }))
          .status,
      );
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200]);
    // Each in-memory instance still stops its own sixth call.
    const more: number[] = [];
    for (let i = 0; i < 3; i++) {
      more.push(
        (
          await call(memA.app, '/contact/create', contact, {
            remoteAddress: ip,
          })
        ).status,
      );
    }
    assert.deepEqual(more, [200, 200, 429]);
  });

  it('reads REDIS_URL: unset is in memory, a non-Redis URL stops the server', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'proam-conf-'));
    try {
      const load = (env: Record<string, string>) =>
        loadConfig({ DATA_DIR: dataDir, ...env });
      assert.equal(load({}).redisUrl, null);
      assert.equal(load({ REDIS_URL: REDIS_URL }).redisUrl, REDIS_URL);
      assert.throws(
        () => load({ REDIS_URL: 'http://127.0.0.1:6379' }),
        (e: unknown) => e instanceof ConfigError && e.setting === 'REDIS_URL',
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
