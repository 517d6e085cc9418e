-- Read receipts name messages by sort_key alone (/roundLesson/messageReaded takes a list of keys without
-- their lesson; chat-repository.ts markRead), and the primary key (partition_key, sort_key) cannot serve a
-- look-up by its second column: each call read the whole of it (about 58 ms at 300,000 messages, during which
-- PGlite's one connection served nothing else). Keys are ULIDs, so each is found in a few index pages.
-- Not in schema.ts, as the trigram index of 0019: the snapshot is 0020's, and drizzle-kit leaves it alone.
CREATE INDEX IF NOT EXISTS "messages_sort_key_idx" ON "messages" USING btree ("sort_key");
