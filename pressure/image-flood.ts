/**
 * Image decompression flood, the real server in a child
 * process with the demo seed, on PGlite (a server's memory then includes the
 * database's) and on a fresh PostgreSQL database (PRESSURE_ENGINES):
 * 1. One member (ama1) sends 24 uploads at once: small files that declare a
 *    huge canvas (a 27 KB GIF of 2000×20000, a 70 KB WebP of 6300×6300) and
 *    ordinary 12-megapixel phone photos.
 * 2. Five members (ama2…ama6) send 5 uploads each at once of the costliest
 *    small files still allowed: canvases just under the 25-megapixel bound
 *    (a GIF, a lossy WebP and an interlaced 16-bit PNG, the slowest to
 *    decode), so the queue, not the pixel bound, keeps the server usable.
 * During each burst another member (pro1) logs in 10 times one after another
 * and the public news list is read after each login. Printed: answers by
 * code, login and news p50/max, and the server's peak RSS (VmHWM of
 * /proc/<pid>/status). Hard checks: every upload answered with 200, 413 or
 * 503 (never another 5xx, never a dropped connection), the huge canvases
 * refused with 413 within 2 s, logins all OK with max ≤ 2 s, peak RSS ≤
 * 1 GB. `npm run test:pressure:images`.
 */
import { readFileSync } from 'node:fs';
import { after, before, describe, it, type TestContext } from 'node:test';
import sharp from 'sharp';
import {
  api,
  check,
  CLIENT_AUTH,
  DEMO_PASSWORD,
  ENGINES,
  keepAlive,
  login,
  ms,
  onEngine,
  percentile,
  request,
  startServer,
  table,
  type Answer,
  type ServerProcess,
} from './shared.js';

const UPLOADS = Number(process.env.PRESSURE_IMAGE_UPLOADS ?? 24);
const PER_MEMBER = Number(process.env.PRESSURE_IMAGE_PER_MEMBER ?? 5);
const LOGINS = 10;
const LOGIN_MAX_MS = 2000;
const RSS_MAX_MB = 1024;
/** A refusal by the header may wait for the other bodies of the burst to be read, not for any decoding. */
const REFUSE_MAX_MS = 2000;

type Img = { name: string; b64: string; hugeCanvas: boolean };

/** A camera-like photo: blurred noise compresses like a real scene. */
async function photo(width: number, height: number): Promise<Buffer> {
  const raw = await sharp({
    create: {
      width,
      height,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .raw()
    .toBuffer();
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .blur(1.2)
    .jpeg({ quality: 85 })
    .toBuffer();
}

const flat = (width: number, height: number) =>
  sharp({
    create: { width, height, channels: 3, background: '#2a7a4b' },
  });

async function images(): Promise<Record<string, Img>> {
  const make = (name: string, buf: Buffer, hugeCanvas = false): Img => ({
    name: `${name} (${Math.round(buf.length / 1024)} KB)`,
    b64: buf.toString('base64'),
    hugeCanvas,
  });
  return {
    gif: make(
      'GIF 2000×20000',
      await flat(2000, 20_000).gif().toBuffer(),
      true,
    ),
    webp: make(
      'WebP 6300×6300',
      await flat(6300, 6300).webp({ quality: 80 }).toBuffer(),
      true,
    ),
    photo12: make('JPEG 4032×3024', await photo(4032, 3024)),
    gif25: make('GIF 1248×20000', await flat(1248, 20_000).gif().toBuffer()),
    webp25: make(
      'WebP 5000×5000',
      await flat(5000, 5000).webp({ quality: 80 }).toBuffer(),
    ),
    png25: make(
      'PNG 5000×5000 16-bit interlaced',
      await flat(5000, 5000)
        .toColourspace('rgb16')
        .png({ progressive: true })
        .toBuffer(),
    ),
  };
}

/** Peak and current resident set of a process, MB. */
function memory(pid: number): { hwm: number; rss: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { hwm: kb('VmHWM') / 1024, rss: kb('VmRSS') / 1024 };
}

type Upload = { img: Img; a: Answer };
type Burst = {
  name: string;
  uploads: Upload[];
  logins: Answer[];
  news: Answer[];
  hwm: number;
  wallMs: number;
};

async function burst(
  server: ServerProcess,
  name: string,
  sends: { img: Img; token: string }[],
): Promise<Burst> {
  const t0 = performance.now();
  const uploads = Promise.all(
    sends.map(async ({ img, token }) => ({
      img,
      a: await api(
        server.origin,
        '/storage/upload',
        { fileName: 'photo', contentType: 'image/jpeg', data: img.b64 },
        token,
        { timeoutMs: 180_000 },
      ),
    })),
  );
  const logins: Answer[] = [];
  const news: Answer[] = [];
  for (let i = 0; i < LOGINS; i++) {
    logins.push(
      await request(
        'POST',
        `${server.origin}/api/auth/login`,
        { mail: 'pro1@example.jp', password: DEMO_PASSWORD },
        { headers: { authorization: CLIENT_AUTH }, timeoutMs: 60_000 },
      ),
    );
    news.push(
      await api(server.origin, '/news/readAll', { size: 20 }, undefined, {
        timeoutMs: 60_000,
      }),
    );
  }
  const done = await uploads;
  return {
    name,
    uploads: done,
    logins,
    news,
    hwm: memory(server.child.pid!).hwm,
    wallMs: performance.now() - t0,
  };
}

async function report(t: TestContext, b: Burst): Promise<void> {
  const byCode = new Map<string, number>();
  for (const { img, a } of b.uploads) {
    const k = `${img.name}: ${a.status} ${a.code ?? a.error ?? ''}`.trim();
    byCode.set(k, (byCode.get(k) ?? 0) + 1);
  }
  const loginMs = b.logins.map((a) => a.ms);
  const newsMs = b.news.map((a) => a.ms);
  const huge = b.uploads.filter((u) => u.img.hugeCanvas);
  console.log(`\n### ${b.name}\n`);
  console.log(
    table(
      ['upload answers', 'count'],
      [...byCode].sort().map(([k, n]) => [k, n]),
    ),
  );
  console.log('');
  console.log(
    table(
      ['figure', 'value'],
      [
        ['logins in order, ms', loginMs.map(ms).join(', ')],
        [
          'login p50 / max ms',
          `${ms(percentile(loginMs, 50))} / ${ms(Math.max(...loginMs))}`,
        ],
        [
          'news p50 / max ms',
          `${ms(percentile(newsMs, 50))} / ${ms(Math.max(...newsMs))}`,
        ],
        ...(huge.length > 0
          ? [
              [
                'huge canvas answer p50 / max ms',
                `${ms(
                  percentile(
                    huge.map((u) => u.a.ms),
                    50,
                  ),
                )} / ${ms(Math.max(...huge.map((u) => u.a.ms)))}`,
              ],
            ]
          : []),
        ['burst wall time s', (b.wallMs / 1000).toFixed(1)],
        ['server peak RSS (VmHWM) MB', b.hwm.toFixed(0)],
      ],
    ),
  );
  const answer = (a: Answer) => `${a.status} ${a.code ?? a.error ?? ''}`;
  const odd = b.uploads.filter(
    ({ a }) => a.status !== 200 && a.status !== 413 && a.status !== 503,
  );
  await check(
    t,
    odd.length === 0,
    `${b.name}: every upload answered 200, 413 or 503 (${odd.length} did not: ${[...new Set(odd.map(({ a }) => answer(a)))].join(', ')})`,
  );
  await check(
    t,
    b.uploads.every(
      ({ a }) => a.status !== 503 || a.headers['retry-after'] !== undefined,
    ),
    `${b.name}: every 503 has Retry-After`,
  );
  if (huge.length > 0) {
    const notRefused = huge.filter(
      ({ a }) => a.status !== 413 || a.code !== 'PayloadTooLarge',
    );
    await check(
      t,
      notRefused.length === 0,
      `${b.name}: every huge canvas refused with 413 PayloadTooLarge (${notRefused.length} of ${huge.length} not: ${[...new Set(notRefused.map(({ a }) => answer(a)))].join(', ')})`,
    );
    const slowest = Math.max(...huge.map(({ a }) => a.ms));
    await check(
      t,
      slowest <= REFUSE_MAX_MS,
      `${b.name}: huge canvases answered within ${REFUSE_MAX_MS} ms (slowest ${ms(slowest)} ms)`,
    );
  }
  await check(
    t,
    b.logins.every((a) => a.code === 'OK'),
    `${b.name}: every login OK (${b.logins.map((a) => a.code ?? a.error).join(',')})`,
  );
  await check(
    t,
    b.news.every((a) => a.code === 'OK'),
    `${b.name}: every news read OK`,
  );
  await check(
    t,
    Math.max(...loginMs) <= LOGIN_MAX_MS,
    `${b.name}: login max ${ms(Math.max(...loginMs))} ms ≤ ${LOGIN_MAX_MS} ms`,
  );
  await check(
    t,
    b.hwm <= RSS_MAX_MB,
    `${b.name}: peak RSS ${b.hwm.toFixed(0)} MB ≤ ${RSS_MAX_MB} MB`,
  );
}

async function engine(
  t: TestContext,
  label: string,
  env: Record<string, string>,
  img: Record<string, Img>,
): Promise<void> {
  console.log(`\n## ${label}`);
  // The first start seeds the demo world, which leaves PGlite's heap large
  // (about 900 MB against 400 MB); a server restarted on its data, as in
  // daily use, is the one measured.
  const seeding = await startServer(env);
  await check(
    t,
    (await seeding.stop()) === 0,
    `${label}: seeding server stopped cleanly`,
  );
  const server = await startServer(env);
  try {
    const tokens: string[] = [];
    for (let i = 1; i <= 6; i++)
      tokens.push(
        (await login(server.origin, `ama${i}@example.jp`)).token.accessToken,
      );
    // A first login of pro1, so the bursts do not pay for warm-up.
    await login(server.origin, 'pro1@example.jp');
    const start = memory(server.child.pid!);
    console.log(
      `\nserver RSS after start and warm-up: ${start.rss.toFixed(0)} MB (peak so far ${start.hwm.toFixed(0)} MB)`,
    );

    const one = [img.gif!, img.webp!, img.photo12!];
    await report(
      t,
      await burst(
        server,
        `${label}: one member, ${UPLOADS} uploads at once (huge canvases and 12 MP photos)`,
        Array.from({ length: UPLOADS }, (_, i) => ({
          img: one[i % one.length]!,
          token: tokens[0]!,
        })),
      ),
    );

    const heavy = [img.gif25!, img.webp25!, img.png25!];
    const second = await burst(
      server,
      `${label}: five members, ${PER_MEMBER} uploads each at once (just under 25 MP)`,
      tokens.slice(1).flatMap((token, m) =>
        Array.from({ length: PER_MEMBER }, (_, i) => ({
          img: heavy[(m + i) % heavy.length]!,
          token,
        })),
      ),
    );
    await report(t, second);
    await check(
      t,
      second.uploads.some((u) => u.a.status === 200),
      `${label}: some allowed heavy images are stored`,
    );
  } finally {
    const code = await server.stop();
    await check(
      t,
      code === 0,
      `${label}: server exit code ${String(code)} after SIGTERM`,
    );
  }
}

describe('image decompression flood', () => {
  let img: Record<string, Img> = {};
  before(async () => {
    img = await images();
  });
  after(() => keepAlive.destroy());

  for (const name of ENGINES)
    it(`${name} stays usable under a flood of costly uploads`, (t) =>
      onEngine(name, 'proam_images', ({ env }) => engine(t, name, env, img)));
});
