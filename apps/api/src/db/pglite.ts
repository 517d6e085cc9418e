import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/**
 * The embedded database with the extensions the migrations install: pg_trgm
 * indexes the pro search's text (migration 0019), and a data folder holding
 * that index cannot write a pro without it. Every opener of a data folder (the
 * server, the benches, the tests that read one) goes through here.
 */
export function newPglite(dataDir?: string): PGlite {
  return new PGlite({ dataDir, extensions: { pg_trgm } });
}
