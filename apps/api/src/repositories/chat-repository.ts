import { and, asc, desc, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { ChatLesson, Message, MessageListInput } from '@proam/contract';
import type { Db, Tx } from '../db/database.js';
import {
  blocks,
  chatHeads,
  messageReads,
  messages,
  reservations,
  schedules,
} from '../db/schema.js';
import { newId } from '../lib/ids.js';
import { ApiError } from '../lib/api-error.js';
import { preparedStatement, reservationsIn } from './queries.js';
import { scheduleRepository } from './schedule-repository.js';

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

/** A message before it is stored: without its key, and read by nobody yet. */
export type MessageDraft = Omit<Message, 'sort_key' | 'readBy'>;

/** A NOTIFY sent with a stored message: its payload is `parts` joined by the message's key. */
export type Notice = { channel: string; parts: string[] };

/** A deleted member's messages stay in the lesson, shown as 退会したユーザー. */
export const DELETED_SENDER = '退会したユーザー';

export function chatRepository(db: Db) {
  // The lessons as the schedule calls answer them, caller's reservation and
  // place in line included: a list built otherwise would overwrite the web's
  // cached lesson with one that lacks them. Only `view` is kept, which reads;
  // the mail links (appUrl) and payment rules are for writes.
  const { view } = scheduleRepository(db, '');

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
     * Who is in the lesson (the pro first) and whether a block silences
     * `senderId` there: what a post needs to know before it is stored, in one
     * round trip. Undefined for an unknown lesson. The lesson's pro is never
     * silenced; an amateur is when they blocked a member of the lesson, or
     * when the pro blocked them. A block made by an amateur silences only
     * that amateur: one who books a lesson and blocks its pro or another
     * participant must not take the chat from them.
     */
    async posting(
      partitionKey: string,
      senderId: string,
    ): Promise<{ members: string[]; blocked: boolean } | undefined> {
      const [row] = await postingStatement(db, { partitionKey, senderId });
      return (
        row && { members: [row.pro, ...row.participants], blocked: row.blocked }
      );
    },

    /**
     * Appends a message in one statement: it takes the lesson's next key from
     * its chat_heads row (after the newest key, and the post's own time when
     * that is later), stores the message and, when `notice` is given, sends
     * it with the key filled in (`parts` joined by the key) through NOTIFY,
     * which PostgreSQL delivers at commit: the event is published if and only
     * if the message is stored. Keys increase in commit order whatever the
     * number of API instances: a concurrent post's upsert waits for the
     * other's commit and reads its key. Within `outer`, the message belongs
     * to that larger change.
     */
    async append(
      draft: MessageDraft,
      notice?: Notice,
      outer?: Tx,
    ): Promise<Message> {
      const [row] = await appendStatement(outer ?? db, {
        partitionKey: draft.partitionKey,
        key: newId(),
        sender: draft.sender,
        msg: draft.msg,
        createTime: draft.createTime,
        channel: notice?.channel ?? null,
        parts: notice?.parts ?? null,
      });
      // The lesson was deleted since the caller found it.
      if (!row) throw new ApiError('NotFound');
      return { ...draft, sort_key: row.sort_key, readBy: [] };
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
     * The keys come without their lesson: they are found through
     * messages_sort_key_idx (migration 0021), not the primary key.
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

    /**
     * The member's lessons that have a chat (their own with a participant, or
     * one they reserved), each with its newest message and the member's unread
     * count, newest conversation first and lessons without messages after by
     * date; `unreadOnly` keeps those with unread messages. Two queries,
     * whatever the number of lessons: this list, and the lessons' people as
     * `viewer` sees them (the schedule repository's view).
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
      const seen = await view(
        rows.map((r) => r.schedule),
        viewer,
      );
      return rows.map((r, i) => ({
        schedule: seen[i]!,
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

/** chatRepository.posting's statement, rendered once (queries.ts). */
const postingStatement = preparedStatement<
  { pro: string; participants: string[]; blocked: boolean },
  'partitionKey' | 'senderId'
>(
  'chat_posting',
  (_db, at) => sql`
    with lesson as (
      select ${schedules.id} as id, ${schedules.proId} as pro,
        coalesce(array_agg(${reservations.userId})
          filter (where ${reservations.userId} is not null), '{}') as participants
      from ${schedules}
      left join ${reservations} on ${reservationsIn(schedules.id, 'confirmed')}
      where ${schedules.id} = ${at.partitionKey}
      group by ${schedules.id}, ${schedules.proId}
    )
    select pro, participants, lesson.pro <> ${at.senderId} and exists (
      select 1 from ${blocks} b
      where b.user_id <> b.blocked_id and (
        (b.user_id = ${at.senderId}
          and (b.blocked_id = lesson.pro or b.blocked_id = any(participants)))
        or (b.user_id = lesson.pro and b.blocked_id = ${at.senderId}))
    ) as blocked
    from lesson`,
);

/**
 * chatRepository.append's statement. A lesson's first post (no head yet)
 * starts after the newest message already stored (the seed's, or those of an
 * earlier version; while an instance of that version still serves posts, its
 * keys can come out of order with these, so an upgrade stops the old instances
 * before the new ones serve: README, Upgrading).
 */
const appendStatement = preparedStatement<
  { sort_key: string },
  'partitionKey' | 'key' | 'sender' | 'msg' | 'createTime' | 'channel' | 'parts'
>(
  'chat_append',
  (_db, at) => sql`
    with head as (
      insert into ${chatHeads} as h (partition_key, last_key)
      select ${at.partitionKey}::text, case
          when stored.k is null or ${at.key}::text > stored.k then ${at.key}::text
          else proam_next_ulid(stored.k) end
      from ${schedules} lesson, (select max(m.sort_key) as k from ${messages} m
        where m.partition_key = ${at.partitionKey}::text) stored
      where lesson.id = ${at.partitionKey}::text
      -- The lesson before the head, in the order a call-off locks them: the
      -- foreign key of the message would otherwise ask for the lesson while
      -- holding the head, and the two would deadlock.
      for key share of lesson
      on conflict (partition_key) do update
      set last_key = case when excluded.last_key > h.last_key
        then excluded.last_key else proam_next_ulid(h.last_key) end
      returning last_key
    ),
    stored as (
      insert into ${messages} (partition_key, sort_key, sender, msg, create_time)
      select ${at.partitionKey}::text, last_key, ${at.sender}::text,
        ${at.msg}::text, ${at.createTime}::timestamptz
      from head
      returning sort_key
    )
    select sort_key,
      case when ${at.channel}::text is not null then pg_notify(${at.channel}::text,
        array_to_string(${at.parts}::text[], sort_key)) end as notified
    from stored`,
);
