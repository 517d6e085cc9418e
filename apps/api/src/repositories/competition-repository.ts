import { and, asc, eq, gte, lte, ne, type SQL } from 'drizzle-orm';
import type {
  Competition,
  CompetitionCreateInput,
  CompetitionReadInput,
  CompetitionUpdateInput,
} from '@proam/contract';
import { newId } from '../lib/ids.js';
import { presentOf } from '../lib/present.js';
import type { PublicReads } from './public-cache.js';
import { matchesKeyword, removeBy } from './queries.js';
import type { Db } from '../db/database.js';
import { competitions } from '../db/schema.js';

type CompetitionRow = typeof competitions.$inferSelect;

export const toCompetition = (r: CompetitionRow): Competition => ({
  id: r.id,
  name: r.name,
  date: r.date,
  venue: r.venue,
  ...presentOf(r, [
    'area',
    'description',
    'capacity',
    'entryFee',
    'entryDeadline',
  ]),
  status: r.status,
  results: [...r.results].sort((a, b) => a.rank - b.rank),
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

export function competitionRepository(db: Db, published: PublicReads) {
  /** Competitions by condition, date ascending; drafts only when asked for (admins). */
  const readNow = async (
    filter: CompetitionReadInput,
    includeDrafts: boolean,
  ): Promise<Competition[]> => {
    const where: (SQL | undefined)[] = [];
    if (!includeDrafts) where.push(ne(competitions.status, 'draft'));
    if (filter.id) where.push(eq(competitions.id, filter.id));
    if (filter.status) where.push(eq(competitions.status, filter.status));
    if (filter.from) where.push(gte(competitions.date, filter.from));
    if (filter.to) where.push(lte(competitions.date, filter.to));
    if (filter.keyword)
      where.push(
        matchesKeyword(filter.keyword, [
          competitions.name,
          competitions.venue,
          competitions.area,
          competitions.description,
        ]),
      );
    const rows = await db
      .select()
      .from(competitions)
      .where(and(...where))
      .orderBy(asc(competitions.date), asc(competitions.id))
      .limit(500);
    return rows.map(toCompetition);
  };

  return {
    /** `readNow` through the public cache (outside a transaction), admins' lists apart. */
    read(
      filter: CompetitionReadInput,
      includeDrafts: boolean,
    ): Promise<Competition[]> {
      if (!published.read) return readNow(filter, includeDrafts);
      const key = `${includeDrafts ? 'admin' : 'public'}:${JSON.stringify(filter)}`;
      return published.read('competitions', key, async () => ({
        value: await readNow(filter, includeDrafts),
      }));
    },

    async create(input: CompetitionCreateInput, now: Date): Promise<string> {
      const id = newId();
      await db.insert(competitions).values({
        id,
        name: input.name,
        date: input.date,
        venue: input.venue,
        area: input.area || null,
        description: input.description || null,
        capacity: input.capacity ?? null,
        entryFee: input.entryFee ?? null,
        entryDeadline: input.entryDeadline || null,
        status: input.status,
        results: input.results ?? [],
        createdAt: now,
        updatedAt: now,
      });
      published.changed('competitions');
      return id;
    },

    async update(input: CompetitionUpdateInput, now: Date): Promise<number> {
      const patch: Partial<typeof competitions.$inferInsert> = {
        updatedAt: now,
      };
      if (input.name !== undefined) patch.name = input.name;
      if (input.date !== undefined) patch.date = input.date;
      if (input.venue !== undefined) patch.venue = input.venue;
      if (input.area !== undefined) patch.area = input.area || null;
      if (input.description !== undefined)
        patch.description = input.description || null;
      // null (the contract's extension of API.md) takes the number off.
      if (input.capacity !== undefined) patch.capacity = input.capacity;
      if (input.entryFee !== undefined) patch.entryFee = input.entryFee;
      if (input.entryDeadline !== undefined)
        patch.entryDeadline = input.entryDeadline || null;
      if (input.status !== undefined) patch.status = input.status;
      if (input.results !== undefined) patch.results = input.results;
      const rows = await db
        .update(competitions)
        .set(patch)
        .where(eq(competitions.id, input.id))
        .returning({ id: competitions.id });
      published.changed('competitions');
      return rows.length;
    },

    async remove(id: string): Promise<number> {
      const n = await removeBy(db, competitions, competitions.id, id);
      published.changed('competitions');
      return n;
    },
  };
}
