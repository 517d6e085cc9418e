import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import sharp from 'sharp';
import { ApiError } from '../../src/lib/api-error.js';
import { imageQueue, JobQueue } from '../../src/storage/image-queue.js';
import {
  MAX_IMAGE_BYTES,
  MAX_IMAGE_EDGE,
  MAX_IMAGE_PIXELS,
} from '../../src/storage/images.js';
import { call, DRIVERS, memberSuite } from '../helper.js';

/** A promise with its resolve, to hold a fake job until the test lets it go. */
function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

const tick = () => new Promise<void>((r) => setImmediate(r));

async function until(ok: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (ok()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.fail(`timed out waiting for ${what}`);
}

const flat = (width: number, height: number, background = '#2a7a4b') =>
  sharp({ create: { width, height, channels: 3, background } });

/**
 * A real JPEG of exactly `bytes`: a photo-like noisy picture, padded with
 * comment (COM) segments right after the start marker, which decoders skip.
 */
async function jpegOfSize(bytes: number): Promise<Buffer> {
  const photo = await sharp({
    create: {
      width: 1600,
      height: 1200,
      channels: 3,
      background: '#336699',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .jpeg({ quality: 90 })
    .toBuffer();
  const segments: Buffer[] = [];
  let room = bytes - photo.length;
  assert.ok(room >= 0, `the picture alone is ${photo.length} bytes`);
  while (room > 0) {
    // A segment is marker (2) + length (2) + payload; at least 4 bytes.
    const size = Math.min(room, 65_535 + 2);
    const take = room - size > 0 && room - size < 4 ? size - 4 : size;
    const seg = Buffer.alloc(take, 0x20);
    seg.writeUInt16BE(0xfffe, 0);
    seg.writeUInt16BE(take - 2, 2);
    segments.push(seg);
    room -= take;
  }
  const out = Buffer.concat([
    photo.subarray(0, 2),
    ...segments,
    photo.subarray(2),
  ]);
  assert.equal(out.length, bytes);
  return out;
}

/** The attack: small files that declare a huge canvas. Made once. */
const bombs = (async () => ({
  // 27 KB; 40 megapixels once decoded.
  gif: await flat(2000, 20_000).gif().toBuffer(),
  // About 100 KB; 39.7 megapixels once decoded.
  webp: await flat(6300, 6300).webp({ quality: 80, effort: 0 }).toBuffer(),
}))();

describe('image job queue', () => {
  const queue = (maxPerKey = 2) =>
    new JobQueue({
      maxRunning: 1,
      maxWaiting: 3,
      maxPerKey,
      retryAfterSeconds: 5,
    });
  const isBusy = (e: unknown) => {
    assert.ok(e instanceof ApiError);
    assert.equal(e.code, 'ServiceUnavailable');
    assert.equal(e.http, 503);
    assert.deepEqual(e.headers, { 'retry-after': '5' });
    return true;
  };

  it('runs one job at a time, in order of arrival', async () => {
    const q = queue(9);
    const order: number[] = [];
    let now = 0;
    let most = 0;
    const gates = [gate(), gate(), gate(), gate()];
    const runs = gates.map((g, i) =>
      q.run('a', async () => {
        now++;
        most = Math.max(most, now);
        order.push(i);
        await g.promise;
        now--;
        return i;
      }),
    );
    await tick();
    assert.equal(q.running, 1);
    assert.equal(q.waiting, 3);
    for (const g of [...gates].reverse()) g.open();
    assert.deepEqual(await Promise.all(runs), [0, 1, 2, 3]);
    assert.deepEqual(order, [0, 1, 2, 3]);
    assert.equal(most, 1);
    assert.equal(q.running, 0);
    assert.equal(q.waiting, 0);
  });

  it('refuses with 503 and Retry-After once the wait list is full, and admits again after', async () => {
    const q = queue(9);
    const g = gate();
    const held = [0, 1, 2, 3].map((i) => q.run(`k${i}`, () => g.promise));
    await tick();
    assert.equal(q.waiting, 3);
    let started = false;
    await assert.rejects(
      q.run('late', async () => {
        started = true;
      }),
      isBusy,
    );
    assert.equal(started, false);
    g.open();
    await Promise.all(held);
    assert.equal(await q.run('late', () => Promise.resolve('ran')), 'ran');
  });

  it('lets one key hold at most maxPerKey places, running or waiting; other keys still get in', async () => {
    const q = queue(2);
    const g = gate();
    const a1 = q.run('a', () => g.promise);
    const a2 = q.run('a', () => g.promise);
    await assert.rejects(
      q.run('a', () => Promise.resolve()),
      isBusy,
    );
    const b = q.run('b', () => Promise.resolve('b'));
    await tick();
    assert.equal(q.waiting, 2);
    g.open();
    await Promise.all([a1, a2]);
    assert.equal(await b, 'b');
    // Its places are given back once its jobs end.
    assert.equal(await q.run('a', () => Promise.resolve(1)), 1);
  });

  it('frees the place of a job that fails, sync or async, and passes the failure on', async () => {
    const q = queue(1);
    await assert.rejects(
      q.run('a', () => Promise.reject(new Error('boom'))),
      /boom/,
    );
    await assert.rejects(
      q.run('a', () => {
        throw new Error('sync boom');
      }),
      /sync boom/,
    );
    assert.equal(q.running, 0);
    assert.equal(await q.run('a', () => Promise.resolve('ok')), 'ok');
  });

  it('the images queue runs one job, 8 waiting, 2 per member, Retry-After 5', async () => {
    assert.equal(imageQueue.running, 0);
    const g = gate();
    const held = Array.from({ length: 9 }, (_, i) =>
      imageQueue.run(`member${i}`, () => g.promise),
    );
    await tick();
    assert.equal(imageQueue.running, 1);
    assert.equal(imageQueue.waiting, 8);
    await assert.rejects(
      imageQueue.run('member9', () => Promise.resolve()),
      isBusy,
    );
    g.open();
    await Promise.all(held);
    const h = gate();
    const two = [0, 1].map(() => imageQueue.run('one', () => h.promise));
    await assert.rejects(
      imageQueue.run('one', () => Promise.resolve()),
      isBusy,
    );
    h.open();
    await Promise.all(two);
  });
});

for (const driver of DRIVERS) {
  describe(`image decompression bounds (${driver})`, () => {
    const suite = memberSuite(driver);
    const { ids, as } = suite;
    const b64 = (b: Buffer) => b.toString('base64');
    const upload = (who: string, data: Buffer) =>
      call(suite.h.app, '/storage/upload', { data: b64(data) }, as(who));
    const stored = (keyName: string) =>
      readFileSync(path.join(suite.h.dataDir, 'media', keyName));
    const filesOf = (who: string) => {
      const dir = path.join(suite.h.dataDir, 'media', 'users', ids[who]!);
      return existsSync(dir) ? readdirSync(dir).sort() : [];
    };

    it('refuses a 27 KB GIF of 2000×20000 and a WebP of 6300×6300 with 413 within a second, storing nothing', async () => {
      const { gif, webp } = await bombs;
      assert.ok(gif.length < 30_000, `GIF is ${gif.length} bytes`);
      assert.ok(webp.length < 200_000, `WebP is ${webp.length} bytes`);
      for (const [name, data] of [
        ['gif', gif],
        ['webp', webp],
      ] as const) {
        const t0 = performance.now();
        const r = await upload('ama1', data);
        const took = performance.now() - t0;
        assert.equal(r.status, 413, `${name}: ${JSON.stringify(r.json)}`);
        assert.equal(r.json.status, 'NG');
        assert.equal(r.json.code, 'PayloadTooLarge');
        assert.equal(r.json.msg, 'ファイルサイズが大きすぎます。');
        assert.ok(took < 1000, `${name} answered in ${took.toFixed(0)} ms`);
      }
      assert.deepEqual(filesOf('ama1'), []);
    });

    it('refuses them on /storage/update too, and the stored photo stays', async () => {
      const png = await flat(40, 30).png().toBuffer();
      const up = await upload('ama2', png);
      assert.equal(up.status, 200, JSON.stringify(up.json));
      const { keyName } = up.json.body as { keyName: string };
      const before = stored(keyName);
      const gif = await flat(40, 30).gif().toBuffer();
      const gifUp = await upload('ama2', gif);
      const gifKey = (gifUp.json.body as { keyName: string }).keyName;
      const t0 = performance.now();
      const r = await call(
        suite.h.app,
        '/storage/update',
        { keyName: gifKey, data: b64((await bombs).gif) },
        as('ama2'),
      );
      assert.ok(performance.now() - t0 < 1000);
      assert.equal(r.json.code, 'PayloadTooLarge');
      const webp = await call(
        suite.h.app,
        '/storage/update',
        { keyName, data: b64((await bombs).webp) },
        as('ama2'),
      );
      assert.equal(webp.json.code, 'PayloadTooLarge');
      assert.deepEqual(stored(keyName), before);
    });

    it(`draws the line at ${MAX_IMAGE_PIXELS / 1e6} megapixels: 6000×4000 passes, 5001×5000 is refused`, async () => {
      assert.equal(MAX_IMAGE_PIXELS, 25_000_000);
      const camera = await upload(
        'ama3',
        await flat(6000, 4000).jpeg().toBuffer(),
      );
      assert.equal(camera.status, 200, JSON.stringify(camera.json));
      const meta = await sharp(
        stored((camera.json.body as { keyName: string }).keyName),
      ).metadata();
      assert.deepEqual([meta.width, meta.height], [2048, 1365]);
      const over = await upload(
        'ama3',
        await flat(5001, 5000).png().toBuffer(),
      );
      assert.equal(over.status, 413);
      assert.equal(over.json.code, 'PayloadTooLarge');
    });

    it('stores a 12 MP phone photo with its long edge at 2048, upright and without EXIF; small ones keep their size', async () => {
      assert.equal(MAX_IMAGE_EDGE, 2048);
      const photo = await flat(4032, 3024, '#88aa33')
        .jpeg({ quality: 90 })
        .withExif({ IFD0: { Make: 'SecretCam' } })
        .toBuffer();
      const r = await upload('ama4', photo);
      assert.equal(r.status, 200, JSON.stringify(r.json));
      const { keyName } = r.json.body as { keyName: string };
      assert.match(keyName, /\.jpg$/);
      const out = stored(keyName);
      const meta = await sharp(out).metadata();
      assert.equal(meta.format, 'jpeg');
      assert.deepEqual([meta.width, meta.height], [2048, 1536]);
      assert.equal(meta.exif, undefined);
      assert.ok(!out.includes(Buffer.from('SecretCam')));

      // Held sideways (EXIF orientation 6): stored upright, portrait.
      const sideways = await flat(4032, 3024)
        .jpeg()
        .withMetadata({ orientation: 6 })
        .toBuffer();
      const s = await upload('ama4', sideways);
      assert.equal(s.status, 200, JSON.stringify(s.json));
      const sMeta = await sharp(
        stored((s.json.body as { keyName: string }).keyName),
      ).metadata();
      assert.deepEqual([sMeta.width, sMeta.height], [1536, 2048]);
      assert.equal(sMeta.orientation, undefined);

      const small = await upload('ama4', await flat(40, 30).png().toBuffer());
      const smallMeta = await sharp(
        stored((small.json.body as { keyName: string }).keyName),
      ).metadata();
      assert.deepEqual([smallMeta.width, smallMeta.height], [40, 30]);
    });

    it('keeps only the first frame of an animated GIF or WebP', async () => {
      const frames = await Promise.all(
        ['#ff0000', '#00ff00', '#0000ff'].map((c) =>
          flat(40, 30, c).png().toBuffer(),
        ),
      );
      for (const kind of ['gif', 'webp'] as const) {
        const joined = sharp(frames, { join: { animated: true } });
        const anim = await (
          kind === 'gif' ? joined.gif() : joined.webp()
        ).toBuffer();
        assert.equal((await sharp(anim).metadata()).pages, 3);
        const r = await upload('ama5', anim);
        assert.equal(r.status, 200, JSON.stringify(r.json));
        const { keyName } = r.json.body as { keyName: string };
        assert.ok(keyName.endsWith(`.${kind}`));
        const out = stored(keyName);
        const meta = await sharp(out, { animated: true }).metadata();
        assert.equal(meta.pages ?? 1, 1, kind);
        assert.deepEqual([meta.width, meta.height], [40, 30]);
        const [red, green, blue] = (await sharp(out).stats()).channels;
        assert.ok(
          red!.mean > 240 && green!.mean < 15 && blue!.mean < 15,
          `${kind}: first frame is red`,
        );
      }
    });

    it('answers 503 with Retry-After while the image queue is full, then accepts again', async () => {
      const png = await flat(40, 30).png().toBuffer();
      const g = gate();
      const held = Array.from({ length: 9 }, (_, i) =>
        imageQueue.run(`test-filler-${i}`, () => g.promise),
      );
      await until(() => imageQueue.waiting === 8, 'a full wait list');
      try {
        const t0 = performance.now();
        const r = await upload('ama6', png);
        assert.ok(performance.now() - t0 < 1000);
        assert.equal(r.status, 503);
        assert.equal(r.json.status, 'NG');
        assert.equal(r.json.code, 'ServiceUnavailable');
        assert.equal(r.res.headers['retry-after'], '5');
      } finally {
        g.open();
        await Promise.all(held);
      }
      const ok = await upload('ama6', png);
      assert.equal(ok.status, 200, JSON.stringify(ok.json));
    });

    it('lets one member hold 2 places in the queue; the third gets 503, another member still gets in', async () => {
      const png = await flat(40, 30).png().toBuffer();
      const g = gate();
      const blocker = imageQueue.run('test-blocker', () => g.promise);
      const mine = [upload('pro1', png), upload('pro1', png)];
      await until(() => imageQueue.waiting === 2, 'two waiting uploads');
      const third = await upload('pro1', png);
      assert.equal(third.status, 503);
      assert.equal(third.json.code, 'ServiceUnavailable');
      assert.equal(third.res.headers['retry-after'], '5');
      const other = upload('pro2', png);
      await until(() => imageQueue.waiting === 3, "another member's upload");
      g.open();
      await blocker;
      for (const r of [...(await Promise.all(mine)), await other])
        assert.equal(r.status, 200, JSON.stringify(r.json));
    });
  });

  describe(`upload size (${driver})`, () => {
    const suite = memberSuite(driver);
    const { as } = suite;
    const b64 = (b: Buffer) => b.toString('base64');

    it('refuses a 5.6 MiB image with 413 PayloadTooLarge and the Japanese message, on upload and update', async () => {
      const big = await jpegOfSize(Math.round(5.6 * 1024 * 1024));
      for (const data of [b64(big), `data:image/jpeg;base64,${b64(big)}`]) {
        const r = await call(
          suite.h.app,
          '/storage/upload',
          { fileName: 'IMG_0001.jpg', contentType: 'image/jpeg', data },
          as('ama1'),
        );
        assert.equal(r.status, 413, JSON.stringify(r.json));
        assert.equal(r.json.status, 'NG');
        assert.equal(r.json.code, 'PayloadTooLarge');
        assert.equal(r.json.msg, 'ファイルサイズが大きすぎます。');
      }
      const small = await call(
        suite.h.app,
        '/storage/upload',
        { data: b64(await flat(40, 30).jpeg().toBuffer()) },
        as('ama1'),
      );
      const { keyName } = small.json.body as { keyName: string };
      const upd = await call(
        suite.h.app,
        '/storage/update',
        { keyName, data: b64(big) },
        as('ama1'),
      );
      assert.equal(upd.status, 413, JSON.stringify(upd.json));
      assert.equal(upd.json.code, 'PayloadTooLarge');
    });

    it(`stores an image of exactly ${MAX_IMAGE_BYTES} bytes (5 MiB), sent with a data: prefix`, async () => {
      const atLimit = await jpegOfSize(MAX_IMAGE_BYTES);
      assert.ok((await sharp(atLimit).metadata()).width === 1600);
      const r = await call(
        suite.h.app,
        '/storage/upload',
        {
          fileName: 'IMG_0002.jpg',
          contentType: 'image/jpeg',
          data: `data:image/jpeg;base64,${b64(atLimit)}`,
        },
        as('ama2'),
      );
      assert.equal(r.status, 200, JSON.stringify(r.json));
      assert.match((r.json.body as { keyName: string }).keyName, /\.jpg$/);
    });

    it('answers a body over the route limit with 413 in the NG envelope', async () => {
      const r = await call(
        suite.h.app,
        '/storage/upload',
        { data: 'A'.repeat(9 * 1024 * 1024) },
        as('ama3'),
      );
      assert.equal(r.status, 413);
      assert.match(String(r.res.headers['content-type']), /application\/json/);
      assert.equal(r.json.status, 'NG');
      assert.equal(r.json.code, 'PayloadTooLarge');
      assert.equal(r.json.msg, 'ファイルサイズが大きすぎます。');
      assert.equal(typeof r.json.reqId, 'string');
    });

    describe('over the network', () => {
      before(() => suite.h.app.listen({ port: 0, host: '127.0.0.1' }));
      const port = () => (suite.h.app.server.address() as AddressInfo).port;

      /** POSTs `first` and, unless the server has answered, `rest`; the answer as text. */
      function send(
        headers: Record<string, string>,
        first: string,
        rest: string,
      ): Promise<{ status: number; type: string; body: string }> {
        return new Promise((resolve, reject) => {
          const req = request(
            {
              host: '127.0.0.1',
              port: port(),
              method: 'POST',
              path: '/api/storage/upload',
              headers: {
                'content-type': 'application/json',
                ...as('ama4').headers,
                ...headers,
              },
            },
            (res) => {
              let body = '';
              res.setEncoding('utf8');
              res.on('data', (c: string) => (body += c));
              res.on('end', () =>
                resolve({
                  status: res.statusCode ?? 0,
                  type: String(res.headers['content-type']),
                  body,
                }),
              );
            },
          );
          // The server may close the socket once it has answered.
          req.on('error', reject);
          req.write(first);
          setTimeout(() => {
            if (!req.destroyed) req.end(rest);
          }, 200);
        });
      }

      const assertEnvelope = (r: {
        status: number;
        type: string;
        body: string;
      }) => {
        assert.equal(r.status, 413, r.body);
        assert.match(r.type, /application\/json/);
        const json = JSON.parse(r.body) as Record<string, unknown>;
        assert.equal(json.status, 'NG');
        assert.equal(json.code, 'PayloadTooLarge');
        assert.equal(json.msg, 'ファイルサイズが大きすぎます。');
      };

      it('a declared Content-Length over the limit: 413 envelope before the body is sent', async () => {
        const length = 9 * 1024 * 1024;
        const head = '{"data":"';
        const r = await send(
          { 'content-length': String(length) },
          head,
          'A'.repeat(length - head.length - 2) + '"}',
        );
        assertEnvelope(r);
      });

      it('a chunked body that grows over the limit: 413 envelope', async () => {
        const r = await send(
          { 'transfer-encoding': 'chunked' },
          '{"data":"' + 'A'.repeat(4 * 1024 * 1024),
          'A'.repeat(5 * 1024 * 1024) + '"}',
        );
        assertEnvelope(r);
      });
    });
  });
}
