import { and, asc, eq, gte, ilike, lte, ne, or, type SQL } from 'drizzle-orm';
import type { Competition, CompetitionReadInput } from '@proam/contract';
import type { Db } from '../db/database.js';
import { competitions } from '../db/schema.js';

type CompetitionRow = typeof competitions.$inferSelect;

const opt = <K extends string, V>(key: K, v: V | null) =>
  (v === null ? {} : { [key]: v }) as Partial<Record<K, V>>;

export const toCompetition = (r: CompetitionRow): Competition => ({
  id: r.id,
  name: r.name,
  date: r.date,
  venue: r.venue,
  ...opt('area', r.area),
  ...opt('description', r.description),
  ...opt('capacity', r.capacity),
  ...opt('entryFee', r.entryFee),
  ...opt('entryDeadline', r.entryDeadline),
  status: r.status,
  results: [...r.results].sort((a, b) => a.rank - b.rank),
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

/** `%` and `_` typed by a visitor are literal characters, not wildcards. */
export const likePattern = (keyword: string) =>
  `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function competitionRepository(db: Db) {
  return {
    async read(filter: CompetitionReadInput, includeDrafts: boolean): Promise<Competition[]> {
      const where: (SQL | undefined)[] = [];
      if (!includeDrafts) where.push(ne(competitions.status, 'draft'));
      if (filter.id) where.push(eq(competitions.id, filter.id));
      if (filter.status) where.push(eq(competitions.status, filter.status));
      if (filter.from) where.push(gte(competitions.date, filter.from));
      if (filter.to) where.push(lte(competitions.date, filter.to));
      if (filter.keyword) {
        const p = likePattern(filter.keyword);
        where.push(
          or(
            ilike(competitions.name, p),
            ilike(competitions.venue, p),
            ilike(competitions.area, p),
            ilike(competitions.description, p),
          ),
        );
      }
      const rows = await db
        .select()
        .from(competitions)
        .where(and(...where))
        .orderBy(asc(competitions.date), asc(competitions.id))
        .limit(500);
      return rows.map(toCompetition);
    },
  };
}
