CREATE TABLE "chat_heads" (
	"partition_key" text PRIMARY KEY NOT NULL,
	"last_key" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chat_heads" ADD CONSTRAINT "chat_heads_partition_key_schedules_id_fk" FOREIGN KEY ("partition_key") REFERENCES "public"."schedules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The next ULID after `k` in sort order (its random part incremented), for chat-repository.ts's append:
-- a post whose own key (its time) is not after the lesson's newest takes the one just after it.
CREATE FUNCTION proam_next_ulid(k text) RETURNS text AS $$
DECLARE
  digits constant text := '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  v int;
BEGIN
  FOR i IN REVERSE length(k)..1 LOOP
    v := strpos(digits, substr(k, i, 1)) - 1;
    IF v < 31 THEN
      RETURN substr(k, 1, i - 1) || substr(digits, v + 2, 1) || substr(k, i + 1);
    END IF;
    k := overlay(k PLACING '0' FROM i FOR 1);
  END LOOP;
  RAISE EXCEPTION 'ULID overflow';
END;
$$ LANGUAGE plpgsql IMMUTABLE STRICT;
