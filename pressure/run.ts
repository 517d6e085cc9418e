/**
 * `npm run test:pressure`: builds the API if needed, then runs each check in
 * its own process, one after another (they would skew each other's figures),
 * and ends with a summary. Exit code 1 if any hard check failed; performance
 * targets are printed as met / NOT met and never fail the run.
 * Takes about 15 minutes (PRESSURE_SECONDS=300 of load); see README.
 */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './shared.js';

const CHECKS = [
  { name: 'crash durability', file: 'crash.ts' },
  { name: 'load', file: 'load.ts' },
  { name: 'two instances behind nginx', file: 'nginx.ts' },
];

const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const build = spawnSync(
  process.execPath,
  [tsc, '-b', 'packages/contract', 'apps/api'],
  { cwd: ROOT, stdio: 'inherit' },
);
if (build.status !== 0) process.exit(build.status ?? 1);

const summary: string[] = [];
let failed = false;
for (const check of CHECKS) {
  console.log(`\n=== ${check.name} ===`);
  const t = Date.now();
  const { code, out } = await new Promise<{ code: number; out: string }>(
    (resolve) => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', path.join(ROOT, 'pressure', check.file)],
        { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let text = '';
      child.stdout.on('data', (c: Buffer) => {
        text += c.toString('utf8');
        process.stdout.write(c);
      });
      child.on('close', (c) => resolve({ code: c ?? 1, out: text }));
    },
  );
  const pass = /^# pass (\d+)$/m.exec(out)?.[1] ?? '0';
  const fail = /^# fail (\d+)$/m.exec(out)?.[1] ?? '?';
  if (code !== 0) failed = true;
  summary.push(
    `${check.name}: ${pass} checks passed, ${fail} failed (${Math.round((Date.now() - t) / 1000)} s${code !== 0 ? `, exit ${code}` : ''})`,
  );
}
console.log('\n=== pressure summary ===');
for (const line of summary) console.log(line);
process.exit(failed ? 1 : 0);
