// Sums the gzip size of what the landing page loads, from dist/ after `vite build`:
// - render-critical: the files index.html references (the entry, its static
//   imports, the CSS, deep-link.js), which is what bench/run.ts counts; the
//   prerendered landing page paints with these alone;
// - the app: what src/boot/start-app.ts imports to hydrate it, the chunks of
//   the codeSplitting groups in vite.config.ts (react, state, shell, landing). A first-time visitor's browser fetches these only once the app
//   is needed (src/boot/static-landing.ts); members and other pages at once.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  process.argv[2] ?? '../dist',
);
const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const gz = (file) =>
  gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

const staticImports = (file, seen = new Set()) => {
  if (seen.has(file)) return seen;
  seen.add(file);
  const code = readFileSync(path.join(dist, file), 'utf8');
  for (const m of code.matchAll(
    /(?:^|[;\n])\s*import\s*(?:[^'"()]*?from\s*)?["']\.\/([^"']+\.js)["']/g,
  )) {
    staticImports(`assets/${m[1]}`, seen);
  }
  return seen;
};

const critical = new Set(
  [...html.matchAll(/(?:src|href)="\/([^"]+\.(?:js|css))"/g)].map((m) => m[1]),
);
for (const f of [...critical])
  if (f.endsWith('.js')) staticImports(f, critical);

const startup = new Set();
for (const name of readdirSync(path.join(dist, 'assets')))
  if (/^(react|state|shell|landing)-[\w-]+\.js$/.test(name))
    staticImports(`assets/${name}`, startup);
for (const f of critical) startup.delete(f);

const sum = (files) => [...files].reduce((t, f) => t + gz(f), 0);
console.log('render-critical (referenced by index.html):');
for (const f of critical) console.log(`  ${f}  ${kb(gz(f))}`);
console.log(`  total ${kb(sum(critical))}`);
console.log('the app (loaded on intent, or at once for members):');
for (const f of startup) console.log(`  ${f}  ${kb(gz(f))}`);
console.log(`  total ${kb(sum(startup))}`);
console.log(
  `the landing page with the app (gzip): ${kb(sum(critical) + sum(startup))}`,
);
