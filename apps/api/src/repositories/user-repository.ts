import {
  and,
  asc,
  desc,
  eq,
  exists,
  gte,
  inArray,
  isNull,
  lte,
  ne,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type {
  AdminUsersInput,
  NotificationSettings,
  NotificationSettingsUpdateInput,
  ProConditionInput,
  User,
  UserUpdateInput,
} from '@proam/contract';
import type { Db } from '../db/database.js';
import { blocks, proSearch, schedules, users } from '../db/schema.js';
import { pageOf, type Page } from '../lib/paging.js';
import {
  builtPerShape,
  likePattern,
  matchesKeyword,
  newestFirst,
} from './queries.js';
import { notBlockedWith } from './moderation-repository.js';
import { present, presentOf } from '../lib/present.js';
import type { PublicReads, PublicTable } from './public-cache.js';
import type { UserCache } from './user-cache.js';

export type UserRow = typeof users.$inferSelect;

/**
 * The most blocks for which the search keeps one set of every member in a
 * block (at most 2,001 of the shared cache's 10,000 rows); past it, each
 * member's own answer (sharedPage).
 */
const SHARED_BLOCKS = 1_000;

/** Row → contract User. The address is shown only to the member and to admins. */
/** ★ to one decimal, from the counters kept with the reviews; null without any. */
export const ratingAverage = (sum: number, count: number): number | null =>
  count === 0 ? null : Math.round((sum * 10) / count) / 10;

export function toUser(
  r: UserRow,
  opts: { withEmail: boolean; mediaBaseUrl: string; forAdmin?: boolean },
): User {
  const pro = {
    verified: r.verified,
    ratingAverage: ratingAverage(r.ratingSum, r.reviewCount),
    reviewCount: r.reviewCount,
    ...presentOf(r, [
      'affiliation',
      'career',
      'lessonFee',
      'homeCourse',
      'specialty',
    ]),
  };
  const amateur = presentOf(r, ['averageScore', 'experienceYears']);
  return {
    id: r.id,
    // Every query here leaves buyers out: they are not members.
    type: r.type as User['type'],
    userName: r.userName,
    ...presentOf(r, ['nameKana', 'area', 'bio']),
    imageInfo: r.imageInfo.map((i) => ({
      keyName: i.keyName,
      url: opts.mediaBaseUrl + i.keyName,
    })),
    ...(r.type === 'pro' ? { pro } : {}),
    ...(r.type === 'amature' ? { amateur } : {}),
    likeCount: r.likeCount,
    createdAt: r.createdAt.toISOString(),
    ...(opts.withEmail ? { email: r.email } : {}),
    ...(opts.forAdmin
      ? {
          suspended: r.suspendedAt !== null,
          ...present('suspendReason', r.suspendReason),
        }
      : {}),
  };
}

const blankToNull = (v: string | undefined) =>
  v === undefined ? undefined : v === '' ? null : v;

const SETTINGS = {
  bookingMail: users.notifyBooking,
  reminderMail: users.notifyReminder,
  chatMail: users.notifyChat,
};

/**
 * Who appears in member lists and search: not suspended, and pros only once
 * the company has checked them. Admins see everyone (`unlisted`).
 */
const listed = and(
  isNull(users.suspendedAt),
  or(ne(users.type, 'pro'), eq(users.verified, true)),
);

/** Who asks for a list: admins see unlisted members; nobody sees those they blocked or who blocked them. */
type ListOptions = { unlisted?: boolean; viewerId?: string };

export function userRepository(
  db: Db,
  cache: UserCache,
  published: PublicReads,
) {
  /** The pro search's statement for the filters present and the sort; values are placeholders. */
  const searchQuery = (
    has: Record<
      'area' | 'feeMin' | 'feeMax' | 'keyword' | 'date' | 'listed' | 'viewer',
      boolean
    >,
    sort: 'new' | 'likes' | 'fee' | 'rating',
  ) => {
    const at = sql.placeholder;
    const where: (SQL | undefined)[] = [
      eq(users.type, 'pro'),
      has.listed ? listed : undefined,
      has.viewer ? notBlockedWith(at('viewerId'), users.id) : undefined,
      has.area ? eq(users.area, at('area')) : undefined,
      has.feeMin ? gte(users.lessonFee, at('feeMin')) : undefined,
      has.feeMax ? lte(users.lessonFee, at('feeMax')) : undefined,
      has.keyword
        ? // On the narrow pro_search rows (schema.ts), lower-cased as the
          // trigger lower-cased the text.
          inArray(
            users.id,
            db
              .select({ id: proSearch.userId })
              .from(proSearch)
              .where(sql`${proSearch.text} like lower(${at('pattern')})`),
          )
        : undefined,
      has.date
        ? exists(
            db
              .select({ one: sql`1` })
              .from(schedules)
              .where(
                and(
                  eq(schedules.proId, users.id),
                  eq(schedules.date, at('date')),
                  eq(schedules.statusRound, 'open'),
                ),
              ),
          )
        : undefined,
    ];
    const order =
      sort === 'likes'
        ? [desc(users.likeCount), desc(users.createdAt)]
        : sort === 'fee'
          ? [sql`${users.lessonFee} asc nulls last`, desc(users.createdAt)]
          : sort === 'rating'
            ? [
                // The average as shown (one decimal); unrated pros last, then the most reviewed.
                sql`round(${users.ratingSum}::numeric / nullif(${users.reviewCount}, 0), 1) desc nulls last`,
                desc(users.reviewCount),
                desc(users.createdAt),
              ]
            : [desc(users.createdAt)];
    return db
      .select()
      .from(users)
      .where(and(...where))
      .orderBy(...order, asc(users.id))
      .limit(at('limit'))
      .offset(at('offset'));
  };
  const searchOfShape =
    builtPerShape<ReturnType<ReturnType<typeof searchQuery>['prepare']>>();
  /**
   * Every member on either side of a block, while there are at most
   * SHARED_BLOCKS blocks: one answer for the cache, read again after any
   * block changes. Null when there are more: the set would then weigh up to
   * twice their number in the cache, and one past its bound is never stored
   * (every search would read the whole table again), so each member's own
   * answer is kept instead (`isInABlock`).
   */
  const inABlock = async (): Promise<ReadonlySet<string> | null> => {
    const rows = await db
      .select({ a: blocks.userId, b: blocks.blockedId })
      .from(blocks)
      .limit(SHARED_BLOCKS + 1);
    return rows.length > SHARED_BLOCKS
      ? null
      : new Set(rows.flatMap((r) => [r.a, r.b]));
  };
  /** Whether the member is on either side of a block (the key and blocks_blocked_idx). */
  const isInABlock = async (memberId: string): Promise<boolean> => {
    const [row] = await db
      .select({ one: sql`1` })
      .from(blocks)
      .where(or(eq(blocks.userId, memberId), eq(blocks.blockedId, memberId)))
      .limit(1);
    return row !== undefined;
  };

  /**
   * A page every member in no block sees alike (the pro list, a search):
   * theirs comes from the shared cache (public-cache.ts) under `key`, kept
   * until one of `tables` changes; `load` without a viewer is that page.
   * Admins (who also see unlisted pros), members on either side of a block
   * and reads in a transaction ask the database. Whether the viewer is in a
   * block comes from the cache too, under 'blocks': one set for everyone
   * while blocks are few, else one answer per member. A shared page is never
   * to be changed.
   */
  const sharedPage = async (
    opts: ListOptions,
    tables: PublicTable | readonly PublicTable[],
    key: string,
    load: (viewerId: string | undefined) => Promise<UserRow[]>,
  ): Promise<UserRow[]> => {
    const { read } = published;
    const { viewerId } = opts;
    if (!read || opts.unlisted || viewerId === undefined) return load(viewerId);
    const members = await read('blocks', 'members', async () => ({
      value: await inABlock(),
    }));
    const blocked = members
      ? members.has(viewerId)
      : await read('blocks', `member:${viewerId}`, async () => ({
          value: await isInABlock(viewerId),
        }));
    if (blocked) return load(viewerId);
    return read(tables, key, async () => ({ value: await load(undefined) }));
  };

  const members = ne(users.type, 'buyer');
  return {
    /**
     * A member by id (never a buyer): the busiest read of the member area.
     * From this process's cache, else through its batched loader, so the
     * misses of one turn of the event loop (many members' profiles read at
     * once) go as one query instead of one each.
     */
    find(id: string): Promise<UserRow | undefined> {
      return cache.member(id);
    },

    /** The member's notification settings (通知設定). */
    async notificationSettings(
      id: string,
    ): Promise<NotificationSettings | undefined> {
      const [row] = await db
        .select(SETTINGS)
        .from(users)
        .where(eq(users.id, id));
      return row;
    },

    async updateNotificationSettings(
      id: string,
      patch: NotificationSettingsUpdateInput,
    ): Promise<NotificationSettings | undefined> {
      const set: Partial<typeof users.$inferInsert> = {};
      if (patch.bookingMail !== undefined)
        set.notifyBooking = patch.bookingMail;
      if (patch.reminderMail !== undefined)
        set.notifyReminder = patch.reminderMail;
      if (patch.chatMail !== undefined) set.notifyChat = patch.chatMail;
      if (Object.keys(set).length === 0) return this.notificationSettings(id);
      const [row] = await db
        .update(users)
        .set(set)
        .where(eq(users.id, id))
        .returning(SETTINGS);
      return row;
    },

    /** /admin/users: every member (not buyers), newest first, with filters. */
    async adminSearch(q: AdminUsersInput): Promise<UserRow[]> {
      const where: (SQL | undefined)[] = [members];
      if (q.type) where.push(eq(users.type, q.type));
      if (q.verified !== undefined)
        where.push(and(eq(users.type, 'pro'), eq(users.verified, q.verified)));
      if (q.keyword)
        where.push(
          matchesKeyword(q.keyword, [
            users.userName,
            users.nameKana,
            users.email,
          ]),
        );
      return newestFirst(
        db
          .select()
          .from(users)
          .where(and(...where))
          .$dynamic(),
        users.createdAt,
        users.id,
        pageOf(q, 50),
      );
    },

    async setVerified(id: string, verified: boolean, now: Date) {
      const [row] = await db
        .update(users)
        .set({ verified, updatedAt: now })
        .where(and(eq(users.id, id), eq(users.type, 'pro')))
        .returning();
      cache.evict(id);
      return row;
    },

    /** Suspends (every access token refused from now on) or lifts it. */
    async setSuspended(
      id: string,
      suspended: boolean,
      reason: string | null,
      now: Date,
    ) {
      const [row] = await db
        .update(users)
        .set(
          suspended
            ? { suspendedAt: now, suspendReason: reason, tokensValidAfter: now }
            : { suspendedAt: null, suspendReason: null },
        )
        .where(and(eq(users.id, id), members))
        .returning();
      cache.evict(id);
      return row;
    },

    /** Stores the 利用規約 version the member agreed to, and when. */
    async acceptTerms(
      id: string,
      version: string,
      now: Date,
    ): Promise<{ version: string; acceptedAt: Date } | undefined> {
      const [row] = await db
        .update(users)
        .set({ termsVersion: version, termsAcceptedAt: now })
        .where(and(eq(users.id, id), members))
        .returning({
          version: users.termsVersion,
          acceptedAt: users.termsAcceptedAt,
        });
      cache.evict(id);
      return row?.version && row.acceptedAt
        ? { version: row.version, acceptedAt: row.acceptedAt }
        : undefined;
    },

    async findMany(ids: string[]): Promise<UserRow[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .select()
        .from(users)
        .where(and(inArray(users.id, ids), members));
      const byKey = new Map(rows.map((r) => [r.id, r]));
      return ids.flatMap((id) => byKey.get(id) ?? []);
    },

    /** Applies the editable fields present in `input`; "" clears an optional field. */
    async update(
      id: string,
      type: UserRow['type'],
      input: UserUpdateInput,
      now: Date,
    ): Promise<UserRow | undefined> {
      const patch: Partial<typeof users.$inferInsert> = { updatedAt: now };
      if (input.userName !== undefined) patch.userName = input.userName;
      if (input.nameKana !== undefined)
        patch.nameKana = blankToNull(input.nameKana);
      if (input.area !== undefined) patch.area = blankToNull(input.area);
      if (input.bio !== undefined) patch.bio = blankToNull(input.bio);
      if (type === 'pro' && input.pro) {
        const p = input.pro;
        if (p.affiliation !== undefined)
          patch.affiliation = blankToNull(p.affiliation);
        if (p.career !== undefined) patch.career = blankToNull(p.career);
        if (p.lessonFee !== undefined) patch.lessonFee = p.lessonFee;
        if (p.homeCourse !== undefined)
          patch.homeCourse = blankToNull(p.homeCourse);
        if (p.specialty !== undefined)
          patch.specialty = blankToNull(p.specialty);
      }
      if (type === 'amature' && input.amateur) {
        if (input.amateur.averageScore !== undefined)
          patch.averageScore = input.amateur.averageScore;
        if (input.amateur.experienceYears !== undefined)
          patch.experienceYears = input.amateur.experienceYears;
      }
      const [row] = await db
        .update(users)
        .set(patch)
        .where(eq(users.id, id))
        .returning();
      cache.evict(id);
      return row;
    },

    async setImages(
      id: string,
      keyNames: string[],
      now: Date,
    ): Promise<UserRow | undefined> {
      const [row] = await db
        .update(users)
        .set({
          imageInfo: keyNames.map((keyName) => ({ keyName, url: '' })),
          updatedAt: now,
        })
        .where(eq(users.id, id))
        .returning();
      cache.evict(id);
      return row;
    },

    /** Takes a deleted object out of its owner's photos. */
    async removeImage(ownerId: string, keyName: string): Promise<void> {
      await db
        .update(users)
        .set({
          imageInfo: sql`coalesce((select jsonb_agg(e) from jsonb_array_elements(${users.imageInfo}) e where e->>'keyName' <> ${keyName}), '[]'::jsonb)`,
        })
        .where(eq(users.id, ownerId));
      cache.evict(ownerId);
    },

    async listByType(
      type: 'pro' | 'amature',
      page: Page,
      since?: Date,
      opts: ListOptions = {},
    ): Promise<UserRow[]> {
      const list = (viewerId: string | undefined) =>
        newestFirst(
          db
            .select()
            .from(users)
            .where(
              and(
                eq(users.type, type),
                since ? gte(users.createdAt, since) : undefined,
                opts.unlisted ? undefined : listed,
                viewerId ? notBlockedWith(viewerId, users.id) : undefined,
              ),
            )
            .$dynamic(),
          users.createdAt,
          users.id,
          page,
        );
      // Only the pros' list: an amateur's change announces nothing (0017).
      if (type !== 'pro' || since) return list(opts.viewerId);
      return sharedPage(
        opts,
        'pros',
        JSON.stringify(['all', page.limit, page.offset]),
        list,
      );
    },

    /**
     * A page of the pro search, shared by every member in no block
     * (`sharedPage`): kept until a pro or a block changes, or a lesson for a
     * search by date.
     */
    async searchPros(
      q: ProConditionInput,
      opts: ListOptions = {},
    ): Promise<UserRow[]> {
      const sort =
        q.sort === 'likes' || q.sort === 'fee' || q.sort === 'rating'
          ? q.sort
          : 'new';
      const { limit, offset } = pageOf(q, 20);
      const pattern = q.keyword ? likePattern(q.keyword) : undefined;
      const search = (viewerId: string | undefined) => {
        const has = {
          area: Boolean(q.area),
          feeMin: q.feeMin !== undefined,
          feeMax: q.feeMax !== undefined,
          keyword: pattern !== undefined,
          date: Boolean(q.date),
          listed: !opts.unlisted,
          viewer: viewerId !== undefined,
        };
        const shape = `${sort}:${Object.entries(has)
          .filter(([, on]) => on)
          .map(([name]) => name)
          .join(',')}`;
        return searchOfShape(shape, () => searchQuery(has, sort)).execute({
          area: q.area,
          feeMin: q.feeMin,
          feeMax: q.feeMax,
          pattern,
          date: q.date,
          viewerId,
          limit,
          offset,
        });
      };
      const key = JSON.stringify([
        sort,
        q.area ?? null,
        q.feeMin ?? null,
        q.feeMax ?? null,
        pattern ?? null,
        q.date ?? null,
        limit,
        offset,
      ]);
      return sharedPage(
        opts,
        q.date ? ['pros', 'schedules'] : 'pros',
        key,
        search,
      );
    },
  };
}
