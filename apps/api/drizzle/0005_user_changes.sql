-- Every change to a member row is announced on the `proam_user` channel (delivered at commit), so each API
-- instance can drop that member from its in-process cache, whatever code or tool made the change.
CREATE OR REPLACE FUNCTION proam_user_changed() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('proam_user', CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER users_changed AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION proam_user_changed();
