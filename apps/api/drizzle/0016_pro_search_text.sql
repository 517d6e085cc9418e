-- A pro's text as the search reads it: one field a line, lower-cased (the LIKE lower-cases the keyword).
CREATE FUNCTION proam_pro_search_text(user_name text, name_kana text, home_course text, specialty text)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT lower(coalesce(user_name, '') || E'\n' || coalesce(name_kana, '') || E'\n'
    || coalesce(home_course, '') || E'\n' || coalesce(specialty, ''))
$$;
--> statement-breakpoint
-- What the pro search's keyword reads (pro_search, see schema.ts), kept by the database itself whatever
-- code or tool writes a member: a pro's row follows their text, a member who is not a pro has none.
-- Fired only by a change of that text (or of the type), so likes, reviews and logins never write it.
CREATE FUNCTION proam_pro_search_sync() RETURNS trigger AS $$
BEGIN
  IF NEW.type = 'pro' THEN
    INSERT INTO pro_search (user_id, text)
    VALUES (NEW.id, proam_pro_search_text(NEW.user_name, NEW.name_kana, NEW.home_course, NEW.specialty))
    ON CONFLICT (user_id) DO UPDATE SET text = excluded.text;
  ELSE
    DELETE FROM pro_search WHERE user_id = NEW.id;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER users_pro_search AFTER INSERT OR UPDATE OF type, user_name, name_kana, home_course, specialty
  ON users FOR EACH ROW EXECUTE FUNCTION proam_pro_search_sync();
--> statement-breakpoint
INSERT INTO pro_search (user_id, text)
SELECT id, proam_pro_search_text(user_name, name_kana, home_course, specialty)
FROM users WHERE type = 'pro';
--> statement-breakpoint
-- Only pros are checked, and nearly all listed members are: without statistics of the three columns
-- together, the planner takes "a pro, checked, not suspended" for one row in a hundred instead of
-- eight, and answers a search for pros with an open lesson on a date by reading every pro and
-- sorting (16 ms at 10 k pros) instead of walking the sort's index until a page is found (2 ms).
CREATE STATISTICS users_listing_stats (dependencies, mcv) ON type, verified, suspended_at FROM users;
--> statement-breakpoint
-- A search reads a page: parallel workers cost more to start (about 10 ms) than the whole plan without
-- them (2 ms for pros with an open lesson on a date). Never for the members table.
ALTER TABLE users SET (parallel_workers = 0);
