import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

export type { PGlite };

/**
 * The embedded database with the extensions the migrations install: pg_trgm
 * indexes the pro search's text (migration 0019), and a data folder holding
 * that index can neither write a pro nor search without it (the planner calls
 * the extension to cost the index). Every opener of a data folder (the server,
 * the benches, the tests that read one) goes through here; the lint refuses
 * a static import of PGlite anywhere else (eslint.config.js).
 */
export function newPglite(dataDir?: string): PGlite {
  return new PGlite({ dataDir, extensions: { pg_trgm } });
}
