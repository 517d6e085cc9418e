// Builds what `npm start` and `npm test` need, skipping what is already up to date.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * What a build depends on besides the sources: the installed dependencies (the
 * lockfile and every package.json), the compiler settings and Node itself. A
 * change to any of them (an upgrade, a `npm ci` of another lockfile) rebuilds
 * everything, where the sources' timestamps and tsc's own incremental state
 * would not notice and `npm start` would serve a stale build.
 */
export const BUILD_INPUTS = [
  'package-lock.json',
  'package.json',
  'tsconfig.base.json',
  'packages/contract/package.json',
  'packages/contract/tsconfig.json',
  'apps/api/package.json',
  'apps/api/tsconfig.json',
  'apps/web/package.json',
  'apps/web/tsconfig.json',
];

/** Where the fingerprint of the last build's inputs is kept (beside the API's build). */
const STAMP = path.join(ROOT, 'apps', 'api', 'dist', '.build-inputs');

/** A fingerprint of BUILD_INPUTS' contents (under `root`) and the Node version. */
export function inputsFingerprint(root = ROOT, nodeVersion = process.version) {
  const hash = createHash('sha256').update(nodeVersion);
  for (const file of BUILD_INPUTS) {
    const p = path.join(root, file);
    hash.update(`\0${file}\0`);
    if (existsSync(p)) hash.update(readFileSync(p));
  }
  return hash.digest('hex');
}

function newest(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const entry of readdirSync(p)) {
    if (
      entry === 'node_modules' ||
      entry === 'dist' ||
      entry === '__tests__' ||
      entry === 'e2e'
    )
      continue;
    max = Math.max(max, newest(path.join(p, entry)));
  }
  return max;
}

function run(cmd, args, cwd = ROOT) {
  const r = spawnSync(cmd, args, { cwd, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`build step failed: ${cmd} ${args.join(' ')}`);
    process.exit(r.status ?? 1);
  }
}

/**
 * What a build must do, from the files alone: `stale` when the build inputs
 * changed (everything is built again, forced); `api` when a source of the API
 * or the contract is newer than the last build (or a build is missing); `web`
 * likewise for the web app. Deciding `api` here rather than asking `tsc -b`
 * spares each `npm start` the half second TypeScript takes to load and say
 * that nothing changed.
 */
export function buildPlan(root = ROOT, fingerprint = inputsFingerprint(root)) {
  const stamp = path.join(root, 'apps', 'api', 'dist', '.build-inputs');
  const stale =
    !existsSync(stamp) || readFileSync(stamp, 'utf8').trim() !== fingerprint;
  const builtAt = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
  const contract = path.join(root, 'packages', 'contract');
  const apiSources = Math.max(
    newest(path.join(root, 'apps', 'api', 'src')),
    newest(path.join(contract, 'src')),
  );
  const api =
    stale ||
    !existsSync(path.join(root, 'apps', 'api', 'dist', 'server.bundle.js')) ||
    !existsSync(path.join(contract, 'dist', 'index.js')) ||
    apiSources > builtAt;
  const web = path.join(root, 'apps', 'web');
  const built = path.join(web, 'dist', 'index.html');
  const webSources = Math.max(
    newest(path.join(web, 'src')),
    newest(path.join(web, 'public')),
    newest(path.join(web, 'index.html')),
    newest(path.join(web, 'vite.config.ts')),
    newest(path.join(web, 'vite-plugins')),
    newest(path.join(contract, 'src')),
  );
  return {
    stale,
    api,
    web: stale || !existsSync(built) || statSync(built).mtimeMs < webSources,
  };
}

export function buildAll({ force = false } = {}) {
  const fingerprint = inputsFingerprint();
  const plan = buildPlan(ROOT, fingerprint);
  const stale = force || plan.stale;
  if (stale && existsSync(STAMP))
    console.log(
      'Dependencies, compiler settings or Node changed since the last build: building everything again…',
    );
  if (stale || plan.api) {
    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    // tsc -b is incremental: only what changed is compiled again.
    run(process.execPath, [
      tsc,
      '-b',
      ...(stale ? ['--force'] : []),
      'packages/contract',
      'apps/api',
    ]);
    run(process.execPath, [
      path.join(ROOT, 'apps', 'api', 'scripts', 'bundle.mjs'),
    ]);
  }
  if (stale || plan.web) {
    console.log('Building the web app…');
    run('npm', ['run', 'build', '-w', '@proam/web']);
  }
  mkdirSync(path.dirname(STAMP), { recursive: true });
  writeFileSync(STAMP, `${fingerprint}\n`);
}
