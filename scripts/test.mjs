// `npm test`: every suite of the repository, one after another, with a summary.
// API tests run on PGlite, and on PostgreSQL too when TEST_DATABASE_URL is set.
import { spawn } from 'node:child_process';
import { buildAll, ROOT } from './build.mjs';

buildAll();

const suites = [
  // ESLint with the type-aware rules and the import boundaries, then a proof
  // that each boundary rule fails on code that breaks it.
  { name: 'lint', args: ['run', 'lint'] },
  { name: 'contract', args: ['test', '-w', '@proam/contract'] },
  // The test doubles other suites rely on (the Stripe-compatible server).
  { name: 'test-support', args: ['run', 'test:support'] },
  { name: 'api', args: ['test', '-w', '@proam/api'] },
  { name: 'web', args: ['test', '-w', '@proam/web'] },
  {
    name: 'e2e (Chromium against the real server)',
    args: ['run', 'test:e2e', '-w', '@proam/web'],
  },
  {
    name: 'nginx (two API instances, PostgreSQL, Redis)',
    args: ['run', 'test:pressure:nginx'],
  },
];

function runSuite({ args }) {
  return new Promise((resolve) => {
    const child = spawn('npm', args, {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      process.stdout.write(c);
    });
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
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
    };
  const vt = /^\s*Tests\s+(.*)\(\d+\)\s*$/m.exec(plain);
  if (vt) {
    return {
      passed: +(/(\d+) passed/.exec(vt[1])?.[1] ?? 0),
      failed: +(/(\d+) failed/.exec(vt[1])?.[1] ?? 0),
    };
  }
  return { passed: 0, failed: 0 };
}

let passed = 0;
let failed = 0;
const summary = [];
for (const suite of suites) {
  console.log(`\n=== ${suite.name} ===`);
  const { code, out } = await runSuite(suite);
  const c = counts(out);
  passed += c.passed;
  failed += c.failed + (code !== 0 && c.failed === 0 ? 1 : 0);
  summary.push(
    `${suite.name}: ${c.passed} passed, ${c.failed} failed${code !== 0 ? ` (exit ${code})` : ''}`,
  );
}
console.log('\n=== summary ===');
for (const line of summary) console.log(line);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
