-- A mail written to the outbox wakes the worker of every instance (delivered at commit), in the statement
-- that writes it: no extra round trip for the writer, whatever code or tool inserts the row.
CREATE OR REPLACE FUNCTION proam_outbox_written() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('proam_outbox', '');
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER mail_outbox_written AFTER INSERT ON mail_outbox
  FOR EACH STATEMENT EXECUTE FUNCTION proam_outbox_written();
