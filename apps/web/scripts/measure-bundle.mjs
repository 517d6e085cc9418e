// Sums the gzip size of what the landing page loads first, from dist/ after `vite build`:
// the entry chunk, its static imports and the CSS (the budget's definition), and
// separately the landing route chunk with its own static imports.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../dist',
);
const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const gz = (file) =>
  gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
const refs = (re) => [...html.matchAll(re)].map((m) => m[1].replace(/^\//, ''));

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

const entry = refs(/<script[^>]+src="([^"]+)"/g);
const css = refs(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g);
const firstLoad = new Set();
for (const e of entry) staticImports(e, firstLoad);

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const sum = (files) => [...files].reduce((t, f) => t + gz(f), 0);

const landing = readFileSync(path.join(dist, entry[0]), 'utf8').match(
  /assets\/landing-[^"']+\.js/,
)?.[0];
const landingFiles = landing
  ? [...staticImports(landing)].filter((f) => !firstLoad.has(f))
  : [];

console.log('entry + static imports:');
for (const f of firstLoad) console.log(`  ${f}  ${kb(gz(f))}`);
for (const f of css) console.log(`  ${f}  ${kb(gz(f))}`);
const budget = sum(firstLoad) + sum(css);
console.log(`first-load JS+CSS (gzip): ${kb(budget)}`);
console.log('landing route chunk + its own imports:');
for (const f of landingFiles) console.log(`  ${f}  ${kb(gz(f))}`);
console.log(
  `everything the landing page loads (gzip): ${kb(budget + sum(landingFiles))}`,
);
