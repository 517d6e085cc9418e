-- The pro search's pages are cached in each API instance (repositories/public-cache.ts), so every change they
-- depend on is announced on the `proam_public` channel (delivered at commit), whatever code or tool made it:
-- a pro's member row ('pros'; a row-level trigger, so that the members who are not pros, most of the table,
-- never announce anything, and PostgreSQL sends one notice per transaction however many pros it changed),
-- lessons ('schedules': the search by a date with an open lesson) and blocks ('blocks': who may use the
-- shared pages).
CREATE FUNCTION proam_pros_changed() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('proam_public', 'pros');
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER users_pro_inserted AFTER INSERT ON users
  FOR EACH ROW WHEN (NEW.type = 'pro') EXECUTE FUNCTION proam_pros_changed();
--> statement-breakpoint
CREATE TRIGGER users_pro_updated AFTER UPDATE ON users
  FOR EACH ROW WHEN (OLD.type = 'pro' OR NEW.type = 'pro') EXECUTE FUNCTION proam_pros_changed();
--> statement-breakpoint
CREATE TRIGGER users_pro_deleted AFTER DELETE ON users
  FOR EACH ROW WHEN (OLD.type = 'pro') EXECUTE FUNCTION proam_pros_changed();
--> statement-breakpoint
CREATE TRIGGER users_truncated AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION proam_pros_changed();
--> statement-breakpoint
-- The keyword's text (migration 0016): kept by a trigger on users, but a pro is searched by it. Per row:
-- that trigger runs a DELETE for every member who is not a pro, which changes no row here, and a
-- statement-level trigger would fire for it all the same.
CREATE TRIGGER pro_search_changed AFTER INSERT OR UPDATE OR DELETE ON pro_search
  FOR EACH ROW EXECUTE FUNCTION proam_pros_changed();
--> statement-breakpoint
CREATE TRIGGER pro_search_truncated AFTER TRUNCATE ON pro_search
  FOR EACH STATEMENT EXECUTE FUNCTION proam_pros_changed();
--> statement-breakpoint
CREATE TRIGGER schedules_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON schedules
  FOR EACH STATEMENT EXECUTE FUNCTION proam_public_changed();
--> statement-breakpoint
CREATE TRIGGER blocks_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON blocks
  FOR EACH STATEMENT EXECUTE FUNCTION proam_public_changed();
