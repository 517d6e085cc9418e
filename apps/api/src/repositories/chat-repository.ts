import { and, asc, desc, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { ChatLesson, Message, MessageListInput } from '@proam/contract';
import type { Db, Tx } from '../db/database.js';
import {
  messageReads,
  messages,
  reservations,
  waitlist,
  schedules,
} from '../db/schema.js';
import { newId } from '../lib/ids.js';
import { ApiError } from '../lib/api-error.js';
import { toSchedule } from './schedule-repository.js';

type MessageRow = typeof messages.$inferSelect;
type Viewer = { id: string; type: string };

/** A lesson's newest message as the one-query chat list reads it. */
type LastMessageJson = {
  sortKey: string;
  sender: string | null;
  msg: string;
  createTime: string;
  readBy: string[];
};

/** A deleted member's messages stay in the lesson, shown as 退会したユーザー. */
export const DELETED_SENDER = '退会したユーザー';

export function chatRepository(db: Db) {
  async function readersOf(rows: MessageRow[]): Promise<Map<string, string[]>> {
    const map = new Map<string, string[]>(rows.map((r) => [r.sortKey, []]));
    if (rows.length === 0) return map;
    const reads = await db
      .select({ sortKey: messageReads.sortKey, userId: messageReads.userId })
      .from(messageReads)
      .where(
        and(
          eq(messageReads.partitionKey, rows[0]!.partitionKey),
          inArray(
            messageReads.sortKey,
            rows.map((r) => r.sortKey),
          ),
        ),
      );
    for (const r of reads) map.get(r.sortKey)?.push(r.userId);
    return map;
  }

  const toMessage = (r: MessageRow, readBy: string[]): Message => ({
    partitionKey: r.partitionKey,
    sort_key: r.sortKey,
    msg: r.msg,
    sender: r.sender ?? DELETED_SENDER,
    createTime: r.createTime.toISOString(),
    readBy,
  });

  async function withReaders(rows: MessageRow[]): Promise<Message[]> {
    const readers = await readersOf(rows);
    return rows.map((r) => toMessage(r, readers.get(r.sortKey) ?? []));
  }

  return {
    withReaders,

    /**
     * Appends a message. The lesson row is locked while the key is chosen, so
     * sort_keys increase within a lesson even with several API instances.
     * `inTransaction` runs before the commit (the chat's NOTIFY goes there, so
     * the event is published if and only if the message is stored).
     */
    async append(
      partitionKey: string,
      sender: string,
      msg: string,
      now: Date,
      inTransaction?: (tx: Tx, message: Message) => Promise<void>,
      /** The caller's transaction, when the message belongs to a larger change. */
      outer?: Tx,
    ): Promise<Message> {
      return (outer ?? db).transaction(async (tx) => {
        await tx.execute(
          sql`select 1 from ${schedules} where ${schedules.id} = ${partitionKey} for update`,
        );
        const [last] = await tx
          .select({ k: messages.sortKey })
          .from(messages)
          .where(eq(messages.partitionKey, partitionKey))
          .orderBy(desc(messages.sortKey))
          .limit(1);
        let key = newId();
        if (last && key <= last.k) key = nextUlid(last.k);
        const [inserted] = await tx
          .insert(messages)
          .values({ partitionKey, sortKey: key, sender, msg, createTime: now })
          .returning();
        const message = toMessage(inserted!, []);
        await inTransaction?.(tx, message);
        return message;
      });
    },

    async find(
      partitionKey: string,
      sortKey: string,
    ): Promise<Message | undefined> {
      const rows = await db
        .select()
        .from(messages)
        .where(
          and(
            eq(messages.partitionKey, partitionKey),
            eq(messages.sortKey, sortKey),
          ),
        );
      return (await withReaders(rows))[0];
    },

    /** Ascending by sort_key: the newest `size` before `before`, or the oldest `size` after `after`. */
    async list(q: MessageListInput): Promise<Message[]> {
      const rows = await db
        .select()
        .from(messages)
        .where(
          and(
            eq(messages.partitionKey, q.partitionKey),
            q.after ? gt(messages.sortKey, q.after) : undefined,
            q.before ? lt(messages.sortKey, q.before) : undefined,
          ),
        )
        // From `after` the oldest come first; otherwise the newest, turned back to ascending.
        .orderBy(q.after ? asc(messages.sortKey) : desc(messages.sortKey))
        .limit(q.size ?? 100);
      return withReaders(q.after ? rows : rows.reverse());
    },

    /**
     * Marks messages read by `userId` where they take part in the lesson; own
     * messages and already-read ones are not counted. Returns what changed.
     */
    async markRead(
      userId: string,
      sortKeys: string[],
      now: Date,
    ): Promise<{ partitionKey: string; sortKeys: string[] }[]> {
      if (sortKeys.length === 0) return [];
      const found = await db
        .select({
          partitionKey: messages.partitionKey,
          sortKey: messages.sortKey,
          own: sql<boolean>`${messages.sender} is not distinct from ${userId}`,
          member: sql<boolean>`(${schedules.proId} = ${userId} or exists (select 1 from ${reservations} r where r.schedule_id = ${schedules.id} and r.user_id = ${userId} and r.status = 'confirmed'))`,
        })
        .from(messages)
        .innerJoin(schedules, eq(schedules.id, messages.partitionKey))
        .where(inArray(messages.sortKey, sortKeys));
      // The caller must take part in every listed message's lesson (docs/api.md).
      if (found.some((m) => !m.member)) throw new ApiError('Forbidden');
      const candidates = found
        .filter((m) => !m.own)
        .map(({ partitionKey, sortKey }) => ({ partitionKey, sortKey }));
      if (candidates.length === 0) return [];
      const inserted = await db
        .insert(messageReads)
        .values(candidates.map((c) => ({ ...c, userId, readAt: now })))
        .onConflictDoNothing()
        .returning({
          partitionKey: messageReads.partitionKey,
          sortKey: messageReads.sortKey,
        });
      const by = new Map<string, string[]>();
      for (const r of inserted)
        by.set(r.partitionKey, [...(by.get(r.partitionKey) ?? []), r.sortKey]);
      return [...by].map(([partitionKey, keys]) => ({
        partitionKey,
        sortKeys: keys.sort(),
      }));
    },

    /** Lessons of `userId` with messages they have not read, newest message first. */
    /**
     * The member's lessons that have a chat (their own with a participant, or
     * one they reserved), each with its newest message and the member's unread
     * count, newest conversation first and lessons without messages after by
     * date; `unreadOnly` keeps those with unread messages. One query, whatever
     * the number of lessons.
     */
    async lessons(
      userId: string,
      viewer: Viewer,
      opts: { unreadOnly: boolean; size: number },
    ): Promise<ChatLesson[]> {
      const unread = sql<number>`(select count(*)::int from ${messages} m
        where m.partition_key = ${schedules.id} and m.sender is distinct from ${userId}
          and not exists (select 1 from ${messageReads} mr
            where mr.partition_key = m.partition_key and mr.sort_key = m.sort_key and mr.user_id = ${userId}))`;
      const rows = await db
        .select({
          schedule: schedules,
          participants: sql<
            string[]
          >`(select coalesce(json_agg(r.user_id order by r.created_at), '[]'::json)
            from ${reservations} r where r.schedule_id = ${schedules.id} and r.status = 'confirmed')`,
          waitlistCount:
            sql<number>`(select count(*)::int from ${waitlist} w where w.schedule_id = ${schedules.id})`.mapWith(
              Number,
            ),
          last: sql<LastMessageJson | null>`(select json_build_object(
              'sortKey', m.sort_key, 'sender', m.sender, 'msg', m.msg, 'createTime', m.create_time,
              'readBy', coalesce((select json_agg(mr.user_id) from ${messageReads} mr
                where mr.partition_key = m.partition_key and mr.sort_key = m.sort_key), '[]'::json))
            from ${messages} m where m.partition_key = ${schedules.id}
            order by m.sort_key desc limit 1)`,
          unreadCount: unread.mapWith(Number),
        })
        .from(schedules)
        .where(
          and(
            sql`(${schedules.proId} = ${userId} and ${schedules.reservedCount} > 0
              or exists (select 1 from ${reservations} r where r.schedule_id = ${schedules.id} and r.user_id = ${userId} and r.status = 'confirmed'))`,
            opts.unreadOnly ? sql`${unread} > 0` : undefined,
          ),
        )
        .orderBy(
          sql`(select max(m.sort_key) from ${messages} m where m.partition_key = ${schedules.id}) desc nulls last`,
          asc(schedules.date),
          asc(schedules.startTime),
          asc(schedules.id),
        )
        .limit(opts.size);
      return rows.map((r) => ({
        schedule: toSchedule(
          r.schedule,
          { participants: r.participants, waitlistCount: r.waitlistCount },
          viewer,
        ),
        lastMessage: r.last
          ? {
              partitionKey: r.schedule.id,
              sort_key: r.last.sortKey,
              msg: r.last.msg,
              sender: r.last.sender ?? DELETED_SENDER,
              createTime: new Date(r.last.createTime).toISOString(),
              readBy: r.last.readBy,
            }
          : null,
        unreadCount: r.unreadCount,
      }));
    },
  };
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** The next ULID after `key` in sort order (increments the random part). */
export function nextUlid(key: string): string {
  const chars = key.split('');
  for (let i = chars.length - 1; i >= 0; i--) {
    const v = CROCKFORD.indexOf(chars[i]!);
    if (v < 31) {
      chars[i] = CROCKFORD[v + 1]!;
      return chars.join('');
    }
    chars[i] = '0';
  }
  throw new Error('ULID overflow');
}
