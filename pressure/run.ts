/**
 * `npm run test:pressure`: builds the API if needed, then runs each check
 * file with node:test, one after another (they would skew each other's
 * figures), each in its own process. node:test reports every hard check and
 * the counts, and exits 1 if any failed; performance targets are printed as
 * met / NOT met and never fail the run.
 * Takes about 15 minutes (PRESSURE_SECONDS=300 of load); see README.
 */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './shared.js';

const CHECKS = [
  'crash.ts',
  'load.ts',
  'nginx.ts',
  'image-flood.ts',
  'mail-outbox.ts',
];

const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const build = spawnSync(
  process.execPath,
  [tsc, '-b', 'packages/contract', 'apps/api'],
  { cwd: ROOT, stdio: 'inherit' },
);
if (build.status !== 0) process.exit(build.status ?? 1);

const child = spawn(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-concurrency=1',
    '--test-force-exit',
    ...CHECKS.map((file) => path.join('pressure', file)),
  ],
  { cwd: ROOT, stdio: 'inherit' },
);
child.on('close', (code) => process.exit(code ?? 1));
