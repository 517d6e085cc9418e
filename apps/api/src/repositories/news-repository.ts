import { and, eq, lte, type SQL } from 'drizzle-orm';
import type { News, NewsCreateInput, NewsUpdateInput } from '@proam/contract';
import { newId } from '../lib/ids.js';
import { presentOf } from '../lib/present.js';
import { newestFirst, removeBy } from './queries.js';
import type { Page } from '../lib/paging.js';
import type { Db } from '../db/database.js';
import { news } from '../db/schema.js';

type NewsRow = typeof news.$inferSelect;

export const toNews = (r: NewsRow): News => ({
  id: r.id,
  title: r.title,
  body: r.body,
  ...presentOf(r, ['category', 'imageUrl']),
  publishedAt: r.publishedAt.toISOString(),
});

export function newsRepository(db: Db) {
  const list = async (page: Page, where?: SQL): Promise<News[]> =>
    (
      await newestFirst(
        db.select().from(news).where(where).$dynamic(),
        news.publishedAt,
        news.id,
        page,
      )
    ).map(toNews);

  return {
    /** Published (publishedAt reached) news only: a scheduled item stays hidden until then. */
    async readPublished(id: string, now = new Date()): Promise<News | null> {
      const rows = await db
        .select()
        .from(news)
        .where(and(eq(news.id, id), lte(news.publishedAt, now)))
        .limit(1);
      return rows[0] ? toNews(rows[0]) : null;
    },
    listPublished(page: Page, now = new Date()): Promise<News[]> {
      return list(page, lte(news.publishedAt, now));
    },

    /** Every item, scheduled ones included (the admin's editor). */
    listAll(page: Page): Promise<News[]> {
      return list(page);
    },

    async create(input: NewsCreateInput, now: Date): Promise<News> {
      const [row] = await db
        .insert(news)
        .values({
          id: newId(),
          title: input.title,
          body: input.body,
          category: input.category || null,
          imageUrl: input.imageUrl || null,
          publishedAt: input.publishedAt ? new Date(input.publishedAt) : now,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      return toNews(row!);
    },

    async update(input: NewsUpdateInput, now: Date): Promise<News | null> {
      const patch: Partial<typeof news.$inferInsert> = { updatedAt: now };
      if (input.title !== undefined) patch.title = input.title;
      if (input.body !== undefined) patch.body = input.body;
      if (input.category !== undefined) patch.category = input.category || null;
      if (input.imageUrl !== undefined) patch.imageUrl = input.imageUrl || null;
      if (input.publishedAt !== undefined)
        patch.publishedAt = new Date(input.publishedAt);
      const [row] = await db
        .update(news)
        .set(patch)
        .where(eq(news.id, input.id))
        .returning();
      return row ? toNews(row) : null;
    },

    remove(id: string): Promise<number> {
      return removeBy(db, news, news.id, id);
    },
  };
}
