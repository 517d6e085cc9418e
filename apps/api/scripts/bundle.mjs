// Bundles the built server (dist/server.js and what it imports, our modules
// and the libraries) into one file, dist/server.bundle.js, which `npm start`,
// the test servers and the container run. Resolving and loading the ~1,500
// module files one by one took about 0.8 s of every start; one file takes a
// fraction of that (README, Operations: start-up). It sits at the top of
// dist/, as src/paths.ts expects.
import { build } from 'esbuild';
import path from 'node:path';

const API = path.resolve(import.meta.dirname, '..');

await build({
  entryPoints: [path.join(API, 'dist', 'server.js')],
  outfile: path.join(API, 'dist', 'server.bundle.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  // Loaded from node_modules as they are: native addons (argon2, sharp),
  // PGlite (its WebAssembly and data files sit beside its module), and
  // Swagger UI (serves its own files from its package folder).
  external: [
    '@electric-sql/pglite',
    '@node-rs/argon2',
    'sharp',
    '@fastify/swagger-ui',
  ],
  // CommonJS libraries inside an ES module bundle still call require().
  banner: {
    js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
