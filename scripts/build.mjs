// Builds what `npm start` and `npm test` need, skipping what is already up to date.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');

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

export function buildAll({ force = false } = {}) {
  const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  // tsc -b is incremental: a no-op when nothing changed.
  run(process.execPath, [tsc, '-b', 'packages/contract', 'apps/api']);

  const web = path.join(ROOT, 'apps', 'web');
  const built = path.join(web, 'dist', 'index.html');
  const sources = Math.max(
    newest(path.join(web, 'src')),
    newest(path.join(web, 'public')),
    newest(path.join(web, 'index.html')),
    newest(path.join(web, 'vite.config.ts')),
    newest(path.join(web, 'vite-plugins')),
    newest(path.join(ROOT, 'packages', 'contract', 'src')),
  );
  if (force || !existsSync(built) || statSync(built).mtimeMs < sources) {
    console.log('Building the web app…');
    run('npm', ['run', 'build', '-w', '@proam/web']);
  }
}
