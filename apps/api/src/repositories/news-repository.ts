import { and, desc, eq, lte } from 'drizzle-orm';
import type { News } from '@proam/contract';
import type { Db } from '../db/database.js';
import { news } from '../db/schema.js';

type NewsRow = typeof news.$inferSelect;

export const toNews = (r: NewsRow): News => ({
  id: r.id,
  title: r.title,
  body: r.body,
  ...(r.category ? { category: r.category } : {}),
  ...(r.imageUrl ? { imageUrl: r.imageUrl } : {}),
  publishedAt: r.publishedAt.toISOString(),
});

export function newsRepository(db: Db) {
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
    async listPublished(page: number, size: number, now = new Date()): Promise<News[]> {
      const rows = await db
        .select()
        .from(news)
        .where(lte(news.publishedAt, now))
        .orderBy(desc(news.publishedAt), desc(news.id))
        .limit(size)
        .offset((page - 1) * size);
      return rows.map(toNews);
    },
  };
}
