-- Every statement that changes news or competitions is announced on the `proam_public` channel with the
-- table's name (delivered at commit), so each API instance forgets its cached public reads of that table,
-- whatever code or tool made the change. Per statement, not per row: a bulk change is one notice.
CREATE OR REPLACE FUNCTION proam_public_changed() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('proam_public', TG_TABLE_NAME);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER news_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON news
  FOR EACH STATEMENT EXECUTE FUNCTION proam_public_changed();
--> statement-breakpoint
CREATE TRIGGER competitions_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON competitions
  FOR EACH STATEMENT EXECUTE FUNCTION proam_public_changed();
