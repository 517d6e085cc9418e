// `npm start`: build what is missing or stale, then serve web, API and media on one port.
import { buildAll, ROOT } from './build.mjs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

buildAll();
await import(
  pathToFileURL(path.join(ROOT, 'apps', 'api', 'dist', 'server.js')).href
);
