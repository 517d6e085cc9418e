-- The pro search's keyword (a LIKE '%…%' on pro_search.text, user-repository.ts) through a trigram index: a
-- keyword of three characters or more, such as a pro's name, is looked up in the index instead of reading
-- every pro's text (2.3–2.6 → 0.3 ms a search with 10,000 pros). The planner still walks the sort's index for
-- a common keyword, and a keyword of one or two characters (「府中」) has no trigram, so it reads the texts as before.
-- pg_trgm ships with PostgreSQL's contrib modules (and with PGlite, loaded by db/pglite.ts); where it cannot
-- be installed (no contrib, or no right to create an extension) the search works the same without the index,
-- and the server warns at every start (db/database.ts, trigramIndexMissing; the README says how to add it).
-- fastupdate off: a pro's text changes rarely, and with it on, new entries wait in the index's pending list,
-- which every search reads in full until a VACUUM merges it (PGlite has no autovacuum; after 10,000 pros were
-- added at once, the searches were as slow as without the index).
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN others THEN
  RAISE NOTICE 'pg_trgm not installed (%): the pro search reads every pro''s text for a keyword', SQLERRM;
END $$;
--> statement-breakpoint
-- Whatever schema the extension sits in (a database may keep extensions outside the search path).
DO $$
DECLARE
  nsp name;
BEGIN
  SELECT n.nspname INTO nsp FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
    WHERE e.extname = 'pg_trgm';
  IF nsp IS NOT NULL THEN
    EXECUTE format('CREATE INDEX pro_search_text_trgm_idx ON pro_search USING gin (text %I.gin_trgm_ops) '
      || 'WITH (fastupdate = off)', nsp);
  END IF;
END $$;
