// `npm start`: build what is missing or stale, then serve web, API and media on one port.
import module from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildAll, ROOT } from './build.mjs';

buildAll();
// V8's compiled code of the server bundle (and of the few libraries loaded
// beside it) is kept on disk (Node's compile cache, keyed by each file's
// contents), so a start after the first skips most of the compiling. Enabled
// here, before the server's import, since a module's own static imports are
// loaded before its body could enable it. NODE_COMPILE_CACHE, when set, wins.
module.enableCompileCache?.(
  path.join(ROOT, 'node_modules', '.cache', 'proam-compile'),
);
await import(
  pathToFileURL(path.join(ROOT, 'apps', 'api', 'dist', 'server.bundle.js')).href
);
// Written once the server has started (and loaded what it loads lazily), not
// only at exit: a process that is killed never reaches its exit.
setTimeout(() => module.flushCompileCache?.(), 10_000).unref();
