import { and, eq, gt, lte, min, type SQL } from 'drizzle-orm';
import type { News, NewsCreateInput, NewsUpdateInput } from '@proam/contract';
import { newId } from '../lib/ids.js';
import { presentOf } from '../lib/present.js';
import type { PublicReads } from './public-cache.js';
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

export function newsRepository(db: Db, published: PublicReads) {
  /**
   * A published read through the public cache: kept until news changes or the
   * next scheduled item's time comes (it appears then without any write).
   */
  const cached = <T>(key: string, now: Date, load: () => Promise<T>) => {
    if (!published.read) return load();
    return published.read(
      'news',
      key,
      async () => {
        const [value, [next]] = await Promise.all([
          load(),
          db
            .select({ at: min(news.publishedAt) })
            .from(news)
            .where(gt(news.publishedAt, now)),
        ]);
        return { value, until: next?.at ?? null };
      },
      now,
    );
  };
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
    readPublished(id: string, now: Date): Promise<News | null> {
      return cached(`id:${id}`, now, async () => {
        const rows = await db
          .select()
          .from(news)
          .where(and(eq(news.id, id), lte(news.publishedAt, now)))
          .limit(1);
        return rows[0] ? toNews(rows[0]) : null;
      });
    },
    listPublished(page: Page, now: Date): Promise<News[]> {
      return cached(`page:${page.offset}:${page.limit}`, now, () =>
        list(page, lte(news.publishedAt, now)),
      );
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
      published.changed('news');
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
      published.changed('news');
      return row ? toNews(row) : null;
    },

    async remove(id: string): Promise<number> {
      const n = await removeBy(db, news, news.id, id);
      published.changed('news');
      return n;
    },
  };
}
