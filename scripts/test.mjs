// `npm test`: every suite of the repository (the stages below), with a summary.
// API tests run on PGlite, and on PostgreSQL too when TEST_DATABASE_URL is set.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { buildAll, ROOT } from './build.mjs';

/** Whether something accepts TCP connections at `url`'s host and port (1 s at most). */
function listening(url, defaultPort) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({
      host: hostname.replace(/^\[|\]$/g, '') || '127.0.0.1',
      port: Number(port || defaultPort),
    });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * What the suites need besides Node, checked before anything runs: a machine
 * with only Node fails at once with one message naming what to install,
 * rather than half-way through with a suite's own error. `.ci/run` installs
 * and starts all of it.
 */
async function missingTools() {
  const missing = [];
  if (!existsSync('/usr/bin/chromium'))
    missing.push(
      'Chromium at /usr/bin/chromium (browser tests): apt-get install -y chromium fonts-noto-cjk',
    );
  if (
    !['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx'].some((p) =>
      existsSync(p),
    )
  )
    missing.push('nginx (the two-instance suite): apt-get install -y nginx');
  const pg =
    process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  if (!(await listening(pg, 5432)))
    missing.push(
      `PostgreSQL at ${new URL(pg).host} (TEST_DATABASE_URL): apt-get install -y postgresql, then start it`,
    );
  const redis = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  if (!(await listening(redis, 6379)))
    missing.push(
      `Redis at ${new URL(redis).host} (TEST_REDIS_URL): apt-get install -y redis-server, then start it`,
    );
  return missing;
}

const missing = await missingTools();
if (missing.length > 0) {
  console.error(
    `npm test needs, besides Node:\n${missing.map((m) => `  - ${m}`).join('\n')}\n` +
      'Install them (or run .ci/run, which installs and starts them all), then run npm test again.',
  );
  process.exit(1);
}

buildAll();

const lint = { name: 'lint', args: ['run', 'lint'] };
// `npm run typecheck`: the API's tests, the web app, bench, pressure, audits
// and test-support, which the build does not compile (tsx runs them without
// checking types).
const typecheck = { name: 'typecheck', args: ['run', 'typecheck'] };
const contract = { name: 'contract', args: ['test', '-w', '@proam/contract'] };
// The test doubles other suites rely on (the Stripe-compatible server).
const support = { name: 'test-support', args: ['run', 'test:support'] };
const api = { name: 'api', args: ['test', '-w', '@proam/api'] };
const web = { name: 'web', args: ['test', '-w', '@proam/web'] };
const e2e = {
  name: 'e2e (Chromium against the real server)',
  args: ['run', 'test:e2e', '-w', '@proam/web'],
};
const nginx = {
  name: 'nginx (two API instances, PostgreSQL, Redis)',
  args: ['run', 'test:pressure:nginx'],
};

/**
 * Stages run one after another; the lanes of a stage at the same time, each
 * lane's suites in order. The API suite mostly waits on its databases (one
 * test file at a time), so the CPU-bound ones run beside it; the browser and
 * the nginx suites start servers with timing checks and run alone.
 */
const stages = [
  [[lint, typecheck, contract, support, web], [api]],
  [[e2e]],
  [[nginx]],
];

/** Runs a suite; its output is printed as it comes when it runs alone, else at its end (lanes do not interleave). */
function runSuite({ name, args }, alone) {
  if (alone) console.log(`\n=== ${name} ===`);
  return new Promise((resolve) => {
    const child = spawn('npm', args, {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => {
      out += c;
      if (alone) process.stdout.write(c);
    });
    child.stderr.on('data', (c) => {
      if (alone) process.stderr.write(c);
      else err += c;
    });
    child.on('close', (code) => {
      if (!alone) {
        console.log(`\n=== ${name} ===`);
        process.stdout.write(out);
        process.stderr.write(err);
      }
      resolve({ code: code ?? 1, out });
    });
  });
}

/**
 * Counts from node:test (every suite but web, the nginx one included: `# pass N`
 * from the TAP reporter it uses when piped, `ℹ pass N` from the spec reporter)
 * or Vitest (`Tests  2 failed | 10 passed (12)`).
 */
function counts(out) {
  // eslint-disable-next-line no-control-regex -- strips terminal colour codes
  const plain = out.replace(/\x1b\[[0-9;]*m/g, '');
  const count = (what) =>
    +(new RegExp(`^(?:#|ℹ) ${what} (\\d+)$`, 'm').exec(plain)?.[1] ?? 0);
  if (/^(?:#|ℹ) pass \d+$/m.test(plain))
    // Tests cancelled by a failed hook count as failed, as node:test's exit code says.
    return {
      passed: count('pass'),
      failed: count('fail') + count('cancelled'),
      skipped: count('skipped') + count('todo'),
    };
  const vt = /^\s*Tests\s+(.*)\(\d+\)\s*$/m.exec(plain);
  if (vt) {
    return {
      passed: +(/(\d+) passed/.exec(vt[1])?.[1] ?? 0),
      failed: +(/(\d+) failed/.exec(vt[1])?.[1] ?? 0),
      skipped:
        +(/(\d+) skipped/.exec(vt[1])?.[1] ?? 0) +
        +(/(\d+) todo/.exec(vt[1])?.[1] ?? 0),
    };
  }
  return { passed: 0, failed: 0, skipped: 0 };
}

let passed = 0;
let failed = 0;
let skipped = 0;
const results = new Map();
for (const lanes of stages) {
  const alone = lanes.length === 1;
  await Promise.all(
    lanes.map(async (lane) => {
      for (const suite of lane)
        results.set(suite, await runSuite(suite, alone));
    }),
  );
}
const summary = [];
for (const suite of stages.flat(2)) {
  const { code, out } = results.get(suite);
  const c = counts(out);
  passed += c.passed;
  skipped += c.skipped;
  failed += c.failed + (code !== 0 && c.failed === 0 ? 1 : 0);
  // A suite without test counts (the typecheck) says only how it ended.
  const counted = c.passed + c.failed + c.skipped > 0;
  summary.push(
    counted
      ? `${suite.name}: ${c.passed} passed, ${c.failed} failed${c.skipped ? `, ${c.skipped} skipped` : ''}${code !== 0 ? ` (exit ${code})` : ''}`
      : `${suite.name}: ${code === 0 ? 'ok' : `failed (exit ${code})`}`,
  );
}
console.log('\n=== summary ===');
for (const line of summary) console.log(line);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
// CI (.ci/run) has every service a test asks for: a skipped test there is one that silently stopped running.
const noSkips = process.env.TEST_NO_SKIPS === '1';
if (noSkips && skipped > 0)
  console.log('TEST_NO_SKIPS=1: a test was skipped, which counts as a failure');
process.exit(failed > 0 || (noSkips && skipped > 0) ? 1 : 0);
