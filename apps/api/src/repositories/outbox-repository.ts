import {
  and,
  asc,
  count,
  desc,
  eq,
  inArray,
  isNotNull,
  lt,
  lte,
  ne,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import { mayCancelOn, type MailOutboxSummary } from '@proam/contract';
import type { Db } from '../db/database.js';
import {
  chatDigests,
  mailOutbox,
  messageReads,
  messages,
  payments,
  refunds,
  reservations,
  reviews,
  schedules,
  users,
} from '../db/schema.js';
import { newId } from '../lib/ids.js';
import { addDays, japanDate, japanTime } from '../lib/time.js';
import type { Mail } from '../mail/mailer.js';
import {
  chatDigestMail,
  lessonNoticeMail,
  paymentReceivedMail,
  promotedHoldMail,
  promotedHoldProMail,
  refundedMail,
  type LessonFacts,
  type LessonNoticeKind,
} from '../mail/templates.js';
import { paymentCore, receiptNoOf } from './payment-record-repository.js';
import { rowsOf, stillToBeHeld } from './queries.js';

export type MailCategory = (typeof mailOutbox.$inferInsert)['category'];
export type OutboxRow = typeof mailOutbox.$inferSelect;

/** A mail to write to the outbox: what to send and whose settings decide. */
export type OutboxMail = Mail & {
  category: MailCategory;
  userId?: string | null;
  /** A mail that must exist once (a reminder): a second insert is dropped. */
  dedupeKey?: string;
};

export const OUTBOX_CHANNEL = 'proam_outbox';

/** What a lesson notice needs of the lesson and its pro. */
export type LessonMailFacts = LessonFacts & {
  proId: string;
  proEmail: string;
};
/** The amateurs a notice names, by id. */
export type MailPeople = Map<string, { name: string; email: string }>;

/** How long a claimed mail is the claimer's before another worker may retry it. */
export const CLAIM_MS = 2 * 60_000;
/** A mail that has failed for this long is given up (dead), shown to admins. */
export const GIVE_UP_MS = 24 * 60 * 60_000;

/** 10 s, 20 s, 40 s … capped at 10 minutes, with jitter so retries spread out. */
export function backoffMs(attempts: number, random = Math.random): number {
  const base = Math.min(10_000 * 2 ** Math.max(0, attempts - 1), 10 * 60_000);
  return Math.round(base * (0.75 + random() * 0.5));
}

const CATEGORY_OF: Record<LessonNoticeKind, MailCategory> = {
  reserved: 'booking',
  cancelled: 'booking',
  calledOff: 'booking',
  promoted: 'booking',
  reminder: 'reminder',
  // Sent with the booking notices (the same 通知設定 switch).
  reviewInvite: 'booking',
  changed: 'booking',
};

/** What `lessonNotice` is told: which mails about one lesson, to whom. */
export type LessonNoticeOptions = {
  kind: LessonNoticeKind;
  scheduleId: string;
  amateurIds: string[];
  reason?: string;
  /** `changed`: what changed, one line each. */
  changes?: string[];
  /** Also mail the pro (default true). */
  toPro?: boolean;
  /** Makes each mail exist once (the reminder), whoever scans for it. */
  dedupe?: string;
  now?: Date;
  /** The lesson and the amateurs as the caller already read them in its transaction (saves two queries). */
  known?: { lesson: LessonMailFacts; people: MailPeople };
  /**
   * `promoted` on a lesson paid online: the place is only held until
   * then, so the amateur is asked to pay (link to the payment page) and
   * the pro hears who was offered it (they get `reserved` once it is paid).
   */
  holdUntil?: Date;
  /** `reserved`/`promoted` after an online payment: the fee is paid, not due at the course. */
  paidOnline?: boolean;
};

/** The facts a payment's mail names, as a caller already read them in its transaction. */
export type PaymentMailFacts = {
  payment: {
    id: string;
    scheduleId: string;
    userId: string;
    amount: number;
    serviceFee: number;
    paidAt: Date | null;
    reason: (typeof refunds.$inferSelect)['reason'] | null;
  };
  lesson: LessonMailFacts;
  member: { name: string; email: string };
};

/** What `paymentNotice` is told: the payment and which of its mails. */
export type PaymentNoticeOptions = {
  kind: 'paid' | 'refunded';
  paymentId: string;
  now: Date;
  /** The facts as the caller already read them (saves three queries). */
  known?: PaymentMailFacts;
};

/**
 * The durable mail outbox. Writers call it on the repositories of their own
 * transaction (`repos.transaction`), so a mail exists exactly when the change
 * it announces committed; the worker (mail/outbox-worker.ts) sends it.
 */
/**
 * The outbox rows for `mails`, due at once; inserted with
 * onConflictDoNothing (a dedupe key makes a mail exist once). For a writer
 * that inserts them in the statement of its own change (a CTE).
 */
export const outboxRows = (
  mails: OutboxMail[],
  now: Date,
): (typeof mailOutbox.$inferInsert)[] =>
  mails.map((m) => ({
    id: newId(),
    userId: m.userId ?? null,
    category: m.category,
    toAddress: m.to,
    replyTo: m.replyTo ?? null,
    subject: m.subject,
    body: m.text,
    dedupeKey: m.dedupeKey ?? null,
    nextAttemptAt: now,
    createdAt: now,
  }));

export function outboxRepository(db: Db, appUrl: string) {
  async function enqueue(mails: OutboxMail[], now = new Date()) {
    if (mails.length === 0) return;
    await db
      .insert(mailOutbox)
      .values(outboxRows(mails, now))
      .onConflictDoNothing();
    // The insert wakes every instance's worker at commit: the trigger of
    // drizzle/0012_outbox_notify.sql notifies OUTBOX_CHANNEL.
  }

  async function lessonFacts(
    scheduleId: string,
  ): Promise<LessonMailFacts | undefined> {
    const [row] = await db
      .select({
        date: schedules.date,
        startTime: schedules.startTime,
        endTime: schedules.endTime,
        place: schedules.place,
        fee: schedules.fee,
        proId: schedules.proId,
        proName: users.userName,
        proEmail: users.email,
      })
      .from(schedules)
      .innerJoin(users, eq(users.id, schedules.proId))
      .where(eq(schedules.id, scheduleId));
    return row;
  }

  async function people(ids: string[]): Promise<MailPeople> {
    if (ids.length === 0) return new Map();
    const rows = await db
      .select({ id: users.id, name: users.userName, email: users.email })
      .from(users)
      .where(inArray(users.id, ids));
    return new Map(rows.map((r) => [r.id, { name: r.name, email: r.email }]));
  }

  /**
   * The booked lessons matching `where`, each with its confirmed participants
   * in booking order; `participant` narrows those (a condition on `r`).
   */
  function bookedLessons(where: SQL | undefined, participant = sql``) {
    return db
      .select({
        id: schedules.id,
        participants: sql<
          string[]
        >`(select coalesce(json_agg(r.user_id order by r.created_at), '[]'::json)
          from ${reservations} r where r.schedule_id = ${schedules.id} and r.status = 'confirmed' ${participant})`,
      })
      .from(schedules)
      .where(and(where, sql`${schedules.reservedCount} > 0`));
  }

  return {
    enqueue,

    /** The mails `lessonNotice` queues, for a caller that queues them with others in one insert. */
    async lessonMails(opts: LessonNoticeOptions): Promise<OutboxMail[]> {
      const lesson = opts.known?.lesson ?? (await lessonFacts(opts.scheduleId));
      if (!lesson) return [];
      const who = opts.known?.people ?? (await people(opts.amateurIds));
      const facts: LessonFacts = lesson;
      const category = CATEGORY_OF[opts.kind];
      const link = `${appUrl}/#/tabs/schedule`;
      const names = opts.amateurIds.map((id) => who.get(id)?.name ?? '');
      // Booked (or moved up) on the lesson's day: no longer cancellable.
      const cancelClosed = !mayCancelOn(
        lesson.date,
        japanDate(opts.now ?? new Date()),
      );
      const mails: OutboxMail[] = opts.amateurIds.flatMap((id) => {
        const p = who.get(id);
        if (!p) return [];
        const dedupeKey = opts.dedupe
          ? { dedupeKey: `${opts.dedupe}:${opts.scheduleId}:${id}` }
          : {};
        if (opts.kind === 'promoted' && opts.holdUntil)
          return [
            {
              ...promotedHoldMail({
                to: p.email,
                recipientName: p.name,
                lesson: facts,
                holdUntil: japanTime(opts.holdUntil),
                link: `${appUrl}/#/payment/${opts.scheduleId}`,
              }),
              category,
              userId: id,
              ...dedupeKey,
            },
          ];
        return [
          {
            ...lessonNoticeMail({
              kind: opts.kind,
              role: 'amateur',
              to: p.email,
              recipientName: p.name,
              amateurName: p.name,
              lesson: facts,
              link,
              ...(opts.reason ? { reason: opts.reason } : {}),
              ...(opts.changes ? { changes: opts.changes } : {}),
              ...(opts.paidOnline ? { paidOnline: true } : {}),
              ...(cancelClosed ? { cancelClosed } : {}),
            }),
            category,
            userId: id,
            ...dedupeKey,
          },
        ];
      });
      if (opts.toPro !== false && opts.kind === 'promoted' && opts.holdUntil) {
        if (names.length > 0)
          mails.push({
            ...promotedHoldProMail({
              to: lesson.proEmail,
              recipientName: lesson.proName,
              lesson: facts,
              amateurNames: names,
              holdUntil: japanTime(opts.holdUntil),
              link,
            }),
            category,
            userId: lesson.proId,
          });
      } else if (
        opts.toPro !== false &&
        (names.length > 0 || opts.kind === 'calledOff')
      )
        mails.push({
          ...lessonNoticeMail({
            kind: opts.kind,
            role: 'pro',
            to: lesson.proEmail,
            recipientName: lesson.proName,
            amateurName: names.join('、'),
            lesson: facts,
            link: `${appUrl}/#/tabs/schedule`,
            participants: names,
            ...(opts.reason ? { reason: opts.reason } : {}),
          }),
          category,
          userId: lesson.proId,
          ...(opts.dedupe
            ? { dedupeKey: `${opts.dedupe}:${opts.scheduleId}:${lesson.proId}` }
            : {}),
        });
      return mails;
    },

    /**
     * Mails about one lesson: each amateur in `amateurIds`, and the pro (one
     * mail naming them all). Called inside the change's transaction.
     */
    async lessonNotice(opts: LessonNoticeOptions): Promise<void> {
      await enqueue(await this.lessonMails(opts), opts.now);
    },

    /** The mail `paymentNotice` queues (none when the payment or its member is gone). */
    async paymentMail(opts: PaymentNoticeOptions): Promise<OutboxMail[]> {
      const row =
        opts.known?.payment ??
        (
          await db
            .select({
              ...paymentCore,
              paidAt: payments.paidAt,
              reason: refunds.reason,
            })
            .from(payments)
            .leftJoin(refunds, eq(refunds.paymentId, payments.id))
            .where(eq(payments.id, opts.paymentId))
        )[0];
      if (!row) return [];
      const lesson = opts.known?.lesson ?? (await lessonFacts(row.scheduleId));
      const who =
        opts.known?.member ?? (await people([row.userId])).get(row.userId);
      if (!lesson || !who) return [];
      const payment = { amount: row.amount, serviceFee: row.serviceFee };
      const mail =
        opts.kind === 'paid'
          ? paymentReceivedMail({
              to: who.email,
              recipientName: who.name,
              lesson,
              payment,
              ...(row.paidAt
                ? { receiptNo: receiptNoOf(row.id, row.paidAt) }
                : {}),
              receiptLink: `${appUrl}/#/receipt/${row.id}`,
            })
          : refundedMail({
              to: who.email,
              recipientName: who.name,
              lesson,
              payment,
              reason: row.reason ?? 'cancelled',
              link: `${appUrl}/#/tabs/profile`,
            });
      return [
        {
          ...mail,
          category: 'booking',
          userId: row.userId,
          dedupeKey: `payment-${opts.kind}:${row.id}`,
        },
      ];
    },

    /**
     * The mail about one online payment, to the amateur who paid: `paid`
     * (お支払いを受け付けました, with the breakdown and the receipt link) or
     * `refunded` (返金のお知らせ, with the refund's reason). Called in the
     * transaction that records it; exists once per payment and kind.
     */
    async paymentNotice(opts: PaymentNoticeOptions): Promise<void> {
      await enqueue(await this.paymentMail(opts), opts.now);
    },

    /** `lessonNotice` to the participants of each lesson that has any; answers how many lessons. */
    async noticeEach(
      lessons: { id: string; participants: string[] }[],
      notice: Omit<LessonNoticeOptions, 'scheduleId' | 'amateurIds'>,
    ): Promise<number> {
      let queued = 0;
      for (const lesson of lessons) {
        if (lesson.participants.length === 0) continue;
        await this.lessonNotice({
          ...notice,
          scheduleId: lesson.id,
          amateurIds: lesson.participants,
        });
        queued++;
      }
      return queued;
    },

    /**
     * The reminders of the lessons on `date` (tomorrow), to each participant
     * and the pro. The dedupe key makes each exist once, however many
     * instances scan and however often; a lesson whose pro has been reminded
     * is not looked at again.
     */
    async queueReminders(date: string, now: Date): Promise<number> {
      const due = await bookedLessons(
        and(
          eq(schedules.date, date),
          stillToBeHeld,
          sql`not exists (select 1 from ${mailOutbox} o
            where o.dedupe_key = 'reminder:' || ${schedules.id} || ':' || ${schedules.proId})`,
        ),
      );
      await this.noticeEach(due, { kind: 'reminder', dedupe: 'reminder', now });
      return due.length;
    },

    /**
     * After a lesson has ended (Japan time `nowTime` on its day `today`, or
     * any time the next day, for a server that was down), invites each
     * confirmed participant who has not reviewed it yet to write a review.
     * Each invitation has a unique key, so scans on several instances queue
     * it once; a lesson already invited is skipped by its key prefix.
     */
    async queueReviewInvitations(
      today: string,
      nowTime: string,
      now: Date,
    ): Promise<number> {
      const yesterday = addDays(today, -1);
      const due = await bookedLessons(
        and(
          or(
            eq(schedules.date, yesterday),
            and(eq(schedules.date, today), lte(schedules.endTime, nowTime)),
          ),
          ne(schedules.statusRound, 'cancelled'),
        ),
        // Those not invited yet (the exact key, so its unique index answers) who have not reviewed.
        sql`and not exists (select 1 from ${mailOutbox} o
          where o.dedupe_key = 'review:' || r.schedule_id || ':' || r.user_id)
        and not exists (select 1 from ${reviews} v
          where v.schedule_id = r.schedule_id and v.user_id = r.user_id)`,
      );
      return this.noticeEach(due, {
        kind: 'reviewInvite',
        toPro: false,
        dedupe: 'review',
        now,
      });
    },

    /**
     * Members of a lesson (its pro, its confirmed amateurs) with messages from
     * others unread for 30 minutes, that came after their last digest for
     * that lesson, and no digest in the last 6 hours.
     */
    async unreadDigests(now: Date) {
      const unreadSince = new Date(now.getTime() - 30 * 60_000);
      const quietSince = new Date(now.getTime() - 6 * 60 * 60_000);
      const lookBack = new Date(now.getTime() - 7 * 24 * 60 * 60_000);
      type Due = { schedule_id: string; user_id: string; unread: number };
      return rowsOf<Due>(
        db,
        sql`
        with members as (
          select s.id as schedule_id, s.pro_id as user_id from ${schedules} s
          union all
          select r.schedule_id, r.user_id from ${reservations} r where r.status = 'confirmed'
        )
        select m.partition_key as schedule_id, mb.user_id, count(*)::int as unread
        from ${messages} m
        join members mb on mb.schedule_id = m.partition_key
        left join ${chatDigests} d on d.schedule_id = m.partition_key and d.user_id = mb.user_id
        where m.create_time > ${lookBack}
          and m.create_time <= ${unreadSince}
          and m.sender is distinct from mb.user_id
          and (d.last_sent_at is null or (d.last_sent_at <= ${quietSince} and m.create_time > d.last_sent_at))
          and not exists (select 1 from ${messageReads} mr
            where mr.partition_key = m.partition_key and mr.sort_key = m.sort_key and mr.user_id = mb.user_id)
        group by m.partition_key, mb.user_id
        limit 500`,
      );
    },

    /**
     * Claims one digest and queues its mail, in the caller's transaction: the
     * conditional upsert lets one instance (and one scan) win per 6 hours.
     */
    async queueChatDigest(
      scheduleId: string,
      userId: string,
      unread: number,
      now: Date,
    ): Promise<boolean> {
      const quietSince = new Date(now.getTime() - 6 * 60 * 60_000);
      const won = await db
        .insert(chatDigests)
        .values({ scheduleId, userId, lastSentAt: now })
        .onConflictDoUpdate({
          target: [chatDigests.scheduleId, chatDigests.userId],
          set: { lastSentAt: now },
          setWhere: lte(chatDigests.lastSentAt, quietSince),
        })
        .returning({ at: chatDigests.lastSentAt });
      if (won.length === 0) return false;
      const lesson = await lessonFacts(scheduleId);
      const who = (await people([userId])).get(userId);
      if (!lesson || !who) return false;
      await enqueue(
        [
          {
            ...chatDigestMail({
              to: who.email,
              recipientName: who.name,
              lesson,
              unread,
              link: `${appUrl}/#/tabs/chat/${scheduleId}`,
            }),
            category: 'chat',
            userId,
          },
        ],
        now,
      );
      return true;
    },

    /**
     * Takes up to `limit` due mails for this worker: queued ones whose time
     * has come, and ones another worker claimed and never finished (it died).
     * SKIP LOCKED lets several instances claim side by side, never the same row.
     */
    async claim(now: Date, limit: number): Promise<OutboxRow[]> {
      const due = db
        .select({ id: mailOutbox.id })
        .from(mailOutbox)
        .where(
          or(
            and(
              eq(mailOutbox.status, 'queued'),
              sql`${mailOutbox.nextAttemptAt} <= ${now}`,
            ),
            and(
              eq(mailOutbox.status, 'sending'),
              lt(mailOutbox.lockedUntil, now),
            ),
          ),
        )
        .orderBy(asc(mailOutbox.nextAttemptAt))
        .limit(limit)
        .for('update', { skipLocked: true });
      return db
        .update(mailOutbox)
        .set({
          status: 'sending',
          lockedUntil: new Date(now.getTime() + CLAIM_MS),
          attempts: sql`${mailOutbox.attempts} + 1`,
        })
        .where(inArray(mailOutbox.id, due))
        .returning();
    },

    /** The members among `userIds` who turned off a category of mail. */
    async optedOut(userIds: string[]): Promise<Map<string, Set<MailCategory>>> {
      const out = new Map<string, Set<MailCategory>>();
      if (userIds.length === 0) return out;
      const rows = await db
        .select({
          id: users.id,
          booking: users.notifyBooking,
          reminder: users.notifyReminder,
          chat: users.notifyChat,
        })
        .from(users)
        .where(inArray(users.id, userIds));
      for (const r of rows) {
        const off = new Set<MailCategory>();
        if (!r.booking) off.add('booking');
        if (!r.reminder) off.add('reminder');
        if (!r.chat) off.add('chat');
        out.set(r.id, off);
      }
      return out;
    },

    /**
     * Marks mails done. Account mails carry codes: their body is dropped once
     * sent, so the table never keeps a usable code.
     */
    async finish(ids: string[], status: 'sent' | 'skipped', now: Date) {
      if (ids.length === 0) return;
      await db
        .update(mailOutbox)
        .set({
          status,
          sentAt: now,
          lockedUntil: null,
          body: sql`case when ${mailOutbox.category} = 'account' then '' else ${mailOutbox.body} end`,
        })
        .where(inArray(mailOutbox.id, ids));
    },

    /** A failed attempt: retried later with backoff, or given up after 24 hours. */
    async fail(row: OutboxRow, error: string, now: Date) {
      const dead = now.getTime() - row.createdAt.getTime() >= GIVE_UP_MS;
      await db
        .update(mailOutbox)
        .set({
          status: dead ? 'dead' : 'queued',
          lockedUntil: null,
          lastError: error.slice(0, 500),
          nextAttemptAt: new Date(now.getTime() + backoffMs(row.attempts)),
        })
        .where(eq(mailOutbox.id, row.id));
    },

    /**
     * The mail server is back: every mail waiting out a backoff after a failed
     * attempt is due now, instead of up to 10 minutes later.
     */
    async retryFailedNow(now: Date): Promise<number> {
      const rows = await db
        .update(mailOutbox)
        .set({ nextAttemptAt: now })
        .where(
          and(
            eq(mailOutbox.status, 'queued'),
            isNotNull(mailOutbox.lastError),
            sql`${mailOutbox.nextAttemptAt} > ${now}`,
          ),
        )
        .returning({ id: mailOutbox.id });
      return rows.length;
    },

    /** When the next queued mail is due, so an idle worker sleeps until then. */
    async nextDue(): Promise<Date | null> {
      const [row] = await db
        .select({ at: mailOutbox.nextAttemptAt })
        .from(mailOutbox)
        .where(eq(mailOutbox.status, 'queued'))
        .orderBy(asc(mailOutbox.nextAttemptAt))
        .limit(1);
      return row?.at ?? null;
    },

    async summary(): Promise<MailOutboxSummary> {
      const counts = await db
        .select({ status: mailOutbox.status, n: count() })
        .from(mailOutbox)
        .groupBy(mailOutbox.status);
      const n = (s: OutboxRow['status']) =>
        counts.find((c) => c.status === s)?.n ?? 0;
      const [oldest] = await db
        .select({ at: mailOutbox.createdAt })
        .from(mailOutbox)
        .where(inArray(mailOutbox.status, ['queued', 'sending']))
        .orderBy(asc(mailOutbox.createdAt))
        .limit(1);
      const dead = await db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.status, 'dead'))
        .orderBy(desc(mailOutbox.createdAt))
        .limit(100);
      return {
        queued: n('queued') + n('sending'),
        sent: n('sent'),
        skipped: n('skipped'),
        dead: n('dead'),
        ...(oldest ? { oldestQueuedAt: oldest.at.toISOString() } : {}),
        deadMails: dead.map((r) => ({
          id: r.id,
          to: r.toAddress,
          subject: r.subject,
          attempts: r.attempts,
          ...(r.lastError ? { lastError: r.lastError } : {}),
          createdAt: r.createdAt.toISOString(),
        })),
      };
    },
  };
}
