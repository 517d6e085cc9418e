import { and, eq, inArray } from 'drizzle-orm';
import { findBy, removeBy } from './queries.js';
import type { Db } from '../db/database.js';
import { countSql } from '../db/database.js';
import { mediaObjects } from '../db/schema.js';

export function mediaRepository(db: Db) {
  return {
    async add(
      keyName: string,
      ownerId: string,
      contentType: string,
      size: number,
      now: Date,
    ) {
      await db
        .insert(mediaObjects)
        .values({ keyName, ownerId, contentType, size, createdAt: now });
    },
    find(keyName: string) {
      return findBy(db, mediaObjects, mediaObjects.keyName, keyName);
    },
    async count(ownerId: string): Promise<number> {
      const [r] = await db
        .select({ n: countSql })
        .from(mediaObjects)
        .where(eq(mediaObjects.ownerId, ownerId));
      return r?.n ?? 0;
    },
    async ownedBy(ownerId: string, keyNames: string[]): Promise<Set<string>> {
      if (keyNames.length === 0) return new Set();
      const rows = await db
        .select({ keyName: mediaObjects.keyName })
        .from(mediaObjects)
        .where(
          and(
            eq(mediaObjects.ownerId, ownerId),
            inArray(mediaObjects.keyName, keyNames),
          ),
        );
      return new Set(rows.map((r) => r.keyName));
    },
    async touch(keyName: string, contentType: string, size: number) {
      await db
        .update(mediaObjects)
        .set({ contentType, size })
        .where(eq(mediaObjects.keyName, keyName));
    },
    remove(keyName: string): Promise<number> {
      return removeBy(db, mediaObjects, mediaObjects.keyName, keyName);
    },
  };
}
