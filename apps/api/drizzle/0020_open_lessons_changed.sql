-- The pro search's cached pages depend on lessons only through "an open lesson of this pro on this date"
-- (user-repository.ts, the date filter: pro_id, date, status_round = 'open'). Migration 0017 announced every
-- statement that changed any lesson, so every reservation, hold, cancellation or edit of a note made each API
-- instance forget its search pages, and each such transaction took PostgreSQL's NOTIFY lock at commit, which
-- serialises the commits of all transactions that notify. Now a lesson announces 'schedules' only when that
-- fact changes: an open lesson added or removed, a lesson opened or closed (full, called off, done), or an
-- open lesson moved to another date or pro. A place taken or given back in a lesson that stays open (most
-- holds and reservations) announces nothing. Row-level with WHEN: a row that does not match costs no function
-- call, and PostgreSQL sends one notice per transaction however many rows announce it.
DROP TRIGGER IF EXISTS schedules_changed ON schedules;
--> statement-breakpoint
CREATE TRIGGER schedules_open_inserted AFTER INSERT ON schedules
  FOR EACH ROW WHEN (NEW.status_round = 'open') EXECUTE FUNCTION proam_public_changed();
--> statement-breakpoint
CREATE TRIGGER schedules_open_updated AFTER UPDATE ON schedules
  FOR EACH ROW WHEN (
    (OLD.status_round = 'open') IS DISTINCT FROM (NEW.status_round = 'open')
    OR (NEW.status_round = 'open'
      AND (OLD.date IS DISTINCT FROM NEW.date OR OLD.pro_id IS DISTINCT FROM NEW.pro_id))
  ) EXECUTE FUNCTION proam_public_changed();
--> statement-breakpoint
CREATE TRIGGER schedules_open_deleted AFTER DELETE ON schedules
  FOR EACH ROW WHEN (OLD.status_round = 'open') EXECUTE FUNCTION proam_public_changed();
--> statement-breakpoint
CREATE TRIGGER schedules_truncated AFTER TRUNCATE ON schedules
  FOR EACH STATEMENT EXECUTE FUNCTION proam_public_changed();
