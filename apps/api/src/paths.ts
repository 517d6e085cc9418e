import path from 'node:path';

/**
 * The API package's folder (apps/api), for the files it reads at run time
 * (the migrations, the web app's build). This module sits at the top of
 * `src/` and of `dist/`, as does the server bundle `npm start` runs
 * (`dist/server.bundle.js`, scripts/build.mjs), so `..` is the package from
 * all three; a module deeper in the tree would not be, once bundled.
 */
export const API_ROOT = path.join(import.meta.dirname, '..');
