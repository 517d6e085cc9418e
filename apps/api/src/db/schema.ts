import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  boolean,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import type {
  CompetitionResult,
  CompetitionStatus,
  ImageInfo,
  PaymentRecordStatus,
  PaymentStatus,
  RefundStatus,
  ReservationStatus,
  StatusRound,
  UserType,
} from '@proam/contract';

/** A point in time, stored with its zone (timestamptz) and read as a Date. */
const instant = (name: string) => timestamp(name, { withTimezone: true });

const createdAt = () => instant('created_at').notNull().defaultNow();
const updatedAt = () => instant('updated_at').notNull().defaultNow();

/** A member's id that goes with the member: the row is deleted with the account. */
const memberId = (name: string) =>
  text(name)
    .notNull()
    .references((): AnyPgColumn => users.id, { onDelete: 'cascade' });

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    type: text('type').$type<UserType | 'buyer'>().notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    userName: text('user_name').notNull(),
    nameKana: text('name_kana'),
    area: text('area'),
    bio: text('bio'),
    imageInfo: jsonb('image_info').$type<ImageInfo[]>().notNull().default([]),
    affiliation: text('affiliation'),
    career: text('career'),
    lessonFee: integer('lesson_fee'),
    homeCourse: text('home_course'),
    specialty: text('specialty'),
    averageScore: integer('average_score'),
    experienceYears: integer('experience_years'),
    likeCount: integer('like_count').notNull().default(0),
    /** Access tokens issued before this instant are refused (set by a password reset; docs/security.md TK-11). */
    tokensValidAfter: instant('tokens_valid_after'),
    /** Notification settings (通知設定): which mails the member wants. */
    notifyBooking: boolean('notify_booking').notNull().default(true),
    notifyReminder: boolean('notify_reminder').notNull().default(true),
    notifyChat: boolean('notify_chat').notNull().default(true),
    /** Pros are checked by the company before they start (確認中 until then). */
    verified: boolean('verified').notNull().default(false),
    /** Reviews of a pro, kept with the review in one transaction. */
    ratingSum: integer('rating_sum').notNull().default(0),
    reviewCount: integer('review_count').notNull().default(0),
    /** A suspended member cannot log in and is hidden from others. */
    suspendedAt: instant('suspended_at'),
    suspendReason: text('suspend_reason'),
    /** The 利用規約 version (TERMS_VERSION) the member last agreed to, and when; null: never. */
    termsVersion: text('terms_version'),
    termsAcceptedAt: instant('terms_accepted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Addresses are compared case-insensitively: Foo@Example.jp is the same mailbox.
    uniqueIndex('users_email_lower_uq').on(sql`lower(${t.email})`),
    index('users_type_created_idx').on(t.type, t.createdAt),
    // The pro search's sorts (searchPros), so that a page is the first rows
    // of an index scan, not a sort of every match: read backwards, each
    // gives its ORDER BY exactly, NULLS placement included (DESC means NULLS
    // FIRST, which a DESC NULLS LAST index would not match).
    index('users_type_likes_idx').on(t.type, t.likeCount, t.createdAt),
    index('users_type_fee_idx').on(
      t.type,
      t.lessonFee.asc().nullsLast(),
      t.createdAt.desc().nullsFirst(),
    ),
    index('users_type_rating_idx').on(
      t.type,
      sql`round(${t.ratingSum}::numeric / nullif(${t.reviewCount}, 0), 1) nulls first`,
      t.reviewCount,
      t.createdAt,
    ),
    index('users_type_area_idx').on(t.type, t.area, t.createdAt),
    // 'buyer': a purchasing-system user checked in through punch-out (read-only, never listed).
    check('users_type_ck', sql`${t.type} in ('pro','amature','admin','buyer')`),
  ],
);

export const schedules = pgTable(
  'schedules',
  {
    id: text('id').primaryKey(),
    proId: memberId('pro_id'),
    date: text('date').notNull(),
    startTime: text('start_time').notNull(),
    endTime: text('end_time').notNull(),
    place: text('place').notNull(),
    area: text('area'),
    capacity: integer('capacity').notNull(),
    fee: integer('fee').notNull(),
    note: text('note'),
    statusRound: text('status_round')
      .$type<StatusRound>()
      .notNull()
      .default('open'),
    reservedCount: integer('reserved_count').notNull().default(0),
    /** Why the pro called the lesson off (statusRound 'cancelled'). */
    callOffReason: text('call_off_reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('schedules_pro_date_idx').on(t.proId, t.date),
    index('schedules_date_status_idx').on(t.date, t.statusRound),
    check('schedules_capacity_ck', sql`${t.capacity} between 1 and 4`),
    check(
      'schedules_reserved_ck',
      sql`${t.reservedCount} >= 0 and ${t.reservedCount} <= ${t.capacity}`,
    ),
  ],
);

export const reservations = pgTable(
  'reservations',
  {
    scheduleId: text('schedule_id')
      .notNull()
      .references(() => schedules.id, { onDelete: 'cascade' }),
    userId: memberId('user_id'),
    /**
     * 'confirmed' makes the amateur a participant; 'pending' holds a place
     * (it counts toward capacity) until paid; 'cancelled' is kept as history.
     * `schedules.reserved_count` counts pending and confirmed rows.
     */
    status: text('status')
      .$type<ReservationStatus>()
      .notNull()
      .default('confirmed'),
    amount: integer('amount').notNull().default(0),
    serviceFee: integer('service_fee').notNull().default(0),
    paymentStatus: text('payment_status')
      .$type<PaymentStatus>()
      .notNull()
      .default('none'),
    holdExpiresAt: instant('hold_expires_at'),
    /** The payment of this reservation now (the latest hold), when it is paid online. */
    paymentId: text('payment_id'),
    cancelledAt: instant('cancelled_at'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.scheduleId, t.userId] }),
    index('reservations_user_idx').on(t.userId),
    check(
      'reservations_status_ck',
      sql`${t.status} in ('pending','confirmed','cancelled')`,
    ),
  ],
);

/** キャンセル待ち: the line for a full lesson, in `seq` order. */
export const waitlist = pgTable(
  'waitlist',
  {
    scheduleId: text('schedule_id')
      .notNull()
      .references(() => schedules.id, { onDelete: 'cascade' }),
    userId: memberId('user_id'),
    seq: integer('seq').generatedAlwaysAsIdentity(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.scheduleId, t.userId] }),
    index('waitlist_schedule_seq_idx').on(t.scheduleId, t.seq),
    index('waitlist_user_idx').on(t.userId),
  ],
);

/**
 * The durable mail outbox: a row is written in the transaction of the change
 * it announces and sent by the worker (mail/outbox-worker.ts). `dedupe_key`
 * makes a scheduled mail (the reminder) exist once whatever the number of
 * API instances that scan for it.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: text('id').primaryKey(),
    /** The member it is about (null for the contact desk); no FK: an account's last mail outlives it. */
    userId: text('user_id'),
    /** 'account' mails are always sent; the others follow the member's settings. */
    category: text('category')
      .$type<'account' | 'booking' | 'reminder' | 'chat' | 'contact'>()
      .notNull(),
    toAddress: text('to_address').notNull(),
    replyTo: text('reply_to'),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    dedupeKey: text('dedupe_key'),
    status: text('status')
      .$type<'queued' | 'sending' | 'sent' | 'skipped' | 'dead'>()
      .notNull()
      .default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: instant('next_attempt_at').notNull().defaultNow(),
    lockedUntil: instant('locked_until'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: instant('sent_at'),
  },
  (t) => [
    uniqueIndex('mail_outbox_dedupe_uq').on(t.dedupeKey),
    index('mail_outbox_due_idx').on(t.status, t.nextAttemptAt),
    check(
      'mail_outbox_status_ck',
      sql`${t.status} in ('queued','sending','sent','skipped','dead')`,
    ),
  ],
);

/** When a member was last mailed about unread chat in a lesson (at most once per 6 hours). */
export const chatDigests = pgTable(
  'chat_digests',
  {
    scheduleId: text('schedule_id')
      .notNull()
      .references(() => schedules.id, { onDelete: 'cascade' }),
    userId: memberId('user_id'),
    lastSentAt: instant('last_sent_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.scheduleId, t.userId] })],
);

export const messages = pgTable(
  'messages',
  {
    partitionKey: text('partition_key')
      .notNull()
      .references(() => schedules.id, { onDelete: 'cascade' }),
    sortKey: text('sort_key').notNull(),
    // Null once the sender has deleted their account: shown as 退会したユーザー.
    sender: text('sender'),
    msg: text('msg').notNull(),
    createTime: instant('create_time').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.partitionKey, t.sortKey] }),
    // The unread-chat digest scans recent messages by time.
    index('messages_time_idx').on(t.createTime),
  ],
);

/**
 * A lesson's newest message key. Posting upserts this row and takes its key in
 * the same statement (chat-repository's append): the upsert waits for a
 * concurrent post's commit and sees its key, so keys increase in commit order
 * without a transaction of several round trips around a lock.
 */
export const chatHeads = pgTable('chat_heads', {
  partitionKey: text('partition_key')
    .primaryKey()
    .references(() => schedules.id, { onDelete: 'cascade' }),
  lastKey: text('last_key').notNull(),
});

export const messageReads = pgTable(
  'message_reads',
  {
    partitionKey: text('partition_key').notNull(),
    sortKey: text('sort_key').notNull(),
    userId: memberId('user_id'),
    readAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.partitionKey, t.sortKey, t.userId] }),
    index('message_reads_user_idx').on(t.userId, t.partitionKey),
  ],
);

export const likes = pgTable(
  'likes',
  {
    id: text('id').primaryKey(),
    userId: memberId('user_id'),
    likeUserId: memberId('like_user_id'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('likes_pair_uq').on(t.userId, t.likeUserId),
    index('likes_target_idx').on(t.likeUserId),
  ],
);

export const competitions = pgTable(
  'competitions',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    date: text('date').notNull(),
    venue: text('venue').notNull(),
    area: text('area'),
    description: text('description'),
    capacity: integer('capacity'),
    entryFee: integer('entry_fee'),
    entryDeadline: text('entry_deadline'),
    status: text('status')
      .$type<CompetitionStatus>()
      .notNull()
      .default('draft'),
    results: jsonb('results')
      .$type<CompetitionResult[]>()
      .notNull()
      .default([]),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('competitions_date_idx').on(t.date),
    index('competitions_status_date_idx').on(t.status, t.date),
  ],
);

export const news = pgTable(
  'news',
  {
    id: text('id').primaryKey(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    category: text('category'),
    imageUrl: text('image_url'),
    publishedAt: instant('published_at').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('news_published_idx').on(t.publishedAt)],
);

export const contacts = pgTable(
  'contacts',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    category: text('category').notNull(),
    message: text('message').notNull(),
    handled: boolean('handled').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('contacts_created_idx').on(t.createdAt)],
);

/** Mailed one-time codes, stored as an HMAC; bound to address and purpose. */
export const authCodes = pgTable(
  'auth_codes',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    purpose: text('purpose').$type<'register' | 'reset'>().notNull(),
    codeHash: text('code_hash').notNull(),
    expiresAt: instant('expires_at').notNull(),
    usedAt: instant('used_at'),
    ip: text('ip'),
    createdAt: createdAt(),
  },
  (t) => [
    index('auth_codes_email_idx').on(t.email, t.purpose, t.createdAt),
    index('auth_codes_ip_idx').on(t.ip, t.createdAt),
  ],
);

/** One login (a refresh-token family): revoked as a whole on reuse, logout or password change. */
export const logins = pgTable(
  'logins',
  {
    id: text('id').primaryKey(),
    userId: memberId('user_id'),
    createdAt: createdAt(),
    lastUsedAt: instant('last_used_at').notNull().defaultNow(),
    revokedAt: instant('revoked_at'),
  },
  (t) => [index('logins_user_idx').on(t.userId)],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    loginId: text('login_id')
      .notNull()
      .references(() => logins.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    rotatedAt: instant('rotated_at'),
    /** The successor token, encrypted with a key only the raw old token yields (grace window). */
    successorSealed: text('successor_sealed'),
  },
  (t) => [index('refresh_tokens_login_idx').on(t.loginId)],
);

/**
 * Attempts that count against a limit (docs/security.md AU-07, RC-03), one row each,
 * under a key naming the limit (`login:<address>`, `login-src:<ip>/<address>`,
 * `login-ip:<ip>`, `code:<purpose>:<address>`). A row is written before the
 * password or code is checked, under an advisory lock on its key, so parallel
 * attempts on one or several API instances can't all pass the count
 * (auth/codes.ts `attemptStore`).
 */
export const authAttempts = pgTable(
  'auth_attempts',
  {
    id: text('id').primaryKey(),
    key: text('key').notNull(),
    at: instant('at').notNull(),
  },
  (t) => [
    index('auth_attempts_key_idx').on(t.key, t.at),
    index('auth_attempts_at_idx').on(t.at),
  ],
);

/** Where an address last signed in successfully: such an IP keeps a login budget of its own. */
export const loginSources = pgTable(
  'login_sources',
  {
    email: text('email').notNull(),
    ip: text('ip').notNull(),
    lastSuccessAt: instant('last_success_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.email, t.ip] }),
    index('login_sources_last_success_idx').on(t.lastSuccessAt),
  ],
);

/** Uploaded objects and who uploaded them: ownership is checked here, never inferred from the key. */
export const mediaObjects = pgTable(
  'media_objects',
  {
    keyName: text('key_name').primaryKey(),
    ownerId: memberId('owner_id'),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('media_objects_owner_idx').on(t.ownerId)],
);

/** Who changed what, when: every admin change (competitions, news, contact handling). */
export const auditLog = pgTable(
  'audit_log',
  {
    id: text('id').primaryKey(),
    actorId: text('actor_id').notNull(),
    action: text('action').notNull(),
    targetId: text('target_id'),
    detail: jsonb('detail').$type<Record<string, unknown>>(),
    at: instant('at').notNull().defaultNow(),
  },
  (t) => [index('audit_log_at_idx').on(t.at)],
);

/** A punch-out from a purchasing system: what it sent, and the one-time ticket that starts the visit. */
export const punchoutSessions = pgTable(
  'punchout_sessions',
  {
    id: text('id').primaryKey(),
    buyer: text('buyer').notNull(),
    buyerCookie: text('buyer_cookie').notNull(),
    formPostUrl: text('form_post_url').notNull(),
    userRef: text('user_ref').notNull(),
    userName: text('user_name').notNull(),
    userEmail: text('user_email'),
    ticketHash: text('ticket_hash').notNull(),
    expiresAt: instant('expires_at').notNull(),
    redeemedAt: instant('redeemed_at'),
    buyerUserId: text('buyer_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('punchout_ticket_uq').on(t.ticketHash)],
);

/** 口コミ: one per amateur per lesson; the pro's counters move with it. */
export const reviews = pgTable(
  'reviews',
  {
    id: text('id').primaryKey(),
    scheduleId: text('schedule_id')
      .notNull()
      .references(() => schedules.id, { onDelete: 'cascade' }),
    proId: memberId('pro_id'),
    userId: memberId('user_id'),
    rating: integer('rating').notNull(),
    comment: text('comment'),
    reply: text('reply'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('reviews_lesson_author_uq').on(t.scheduleId, t.userId),
    index('reviews_pro_created_idx').on(t.proId, t.createdAt),
    check('reviews_rating_ck', sql`${t.rating} between 1 and 5`),
  ],
);

/**
 * What the pro search's keyword reads: each pro's searchable text (name,
 * kana, home course, specialty), lower-cased, one field a line (so no match
 * spans two fields). A LIKE on these narrow rows is a few milliseconds for
 * 10 k pros where the same ILIKE on the members' wide rows read every pro's
 * page (17 ms), and its statistics tell the planner how many pros a keyword
 * matches, so it picks the plan that fits: walk the sort's index for a
 * common keyword, look the few up for a rare one. Written by a trigger on
 * users (drizzle/0016_pro_search.sql) only when that text changes.
 */
export const proSearch = pgTable('pro_search', {
  userId: memberId('user_id').primaryKey(),
  text: text('text').notNull(),
});

/** A member who blocked another: neither sees, likes, messages or books the other. */
export const blocks = pgTable(
  'blocks',
  {
    userId: memberId('user_id'),
    blockedId: memberId('blocked_id'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.blockedId] }),
    index('blocks_blocked_idx').on(t.blockedId),
  ],
);

/** 通報: a member's report of a profile, a review or a chat message, for admins. */
export const reports = pgTable(
  'reports',
  {
    id: text('id').primaryKey(),
    reporterId: memberId('reporter_id'),
    targetType: text('target_type')
      .$type<'user' | 'review' | 'message'>()
      .notNull(),
    targetId: text('target_id').notNull(),
    reason: text('reason').notNull(),
    status: text('status')
      .$type<'open' | 'resolved'>()
      .notNull()
      .default('open'),
    resolution: text('resolution'),
    resolvedBy: text('resolved_by'),
    resolvedAt: instant('resolved_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('reports_status_created_idx').on(t.status, t.createdAt),
    uniqueIndex('reports_once_uq').on(t.reporterId, t.targetType, t.targetId),
  ],
);

/**
 * One payment hold and what became of it (支払い履歴, 領収書): a place held
 * for 15 minutes with one PaymentIntent (idempotency key from `id`), then
 * paid, refunded, or failed (expired, declined, released). No FK to the
 * member: the record of money outlives an account.
 */
export const payments = pgTable(
  'payments',
  {
    id: text('id').primaryKey(),
    scheduleId: text('schedule_id')
      .notNull()
      .references(() => schedules.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    /** The lesson fee and the system fee, yen, tax included; the card is charged their sum. */
    amount: integer('amount').notNull(),
    serviceFee: integer('service_fee').notNull(),
    status: text('status')
      .$type<PaymentRecordStatus>()
      .notNull()
      .default('pending'),
    paymentIntentId: text('payment_intent_id'),
    holdExpiresAt: instant('hold_expires_at').notNull(),
    paidAt: instant('paid_at'),
    refundedAt: instant('refunded_at'),
    /** Why it failed (declined, hold expired, lesson called off), for support. */
    failure: text('failure'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('payments_intent_uq').on(t.paymentIntentId),
    index('payments_user_created_idx').on(t.userId, t.createdAt),
    index('payments_schedule_idx').on(t.scheduleId),
    index('payments_pending_hold_idx')
      .on(t.holdExpiresAt)
      .where(sql`${t.status} = 'pending'`),
    check(
      'payments_status_ck',
      sql`${t.status} in ('pending','paid','refunded','failed')`,
    ),
    check('payments_amount_ck', sql`${t.amount} >= 0 and ${t.serviceFee} >= 0`),
  ],
);

/**
 * A refund owed (cancelled in time, called off, paid after the hold was
 * gone): written in the transaction that owes it, sent to Stripe by a worker
 * with the idempotency key `refund-<id>`, retried with backoff; `failed`
 * waits for an admin. One per payment (refunds are in full).
 */
export const refunds = pgTable(
  'refunds',
  {
    id: text('id').primaryKey(),
    paymentId: text('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'cascade' }),
    amount: integer('amount').notNull(),
    reason: text('reason')
      .$type<'cancelled' | 'calledOff' | 'late'>()
      .notNull(),
    status: text('status').$type<RefundStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: instant('next_attempt_at').notNull().defaultNow(),
    lastError: text('last_error'),
    stripeRefundId: text('stripe_refund_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('refunds_payment_uq').on(t.paymentId),
    index('refunds_due_idx').on(t.status, t.nextAttemptAt),
    check(
      'refunds_status_ck',
      sql`${t.status} in ('pending','succeeded','failed')`,
    ),
  ],
);

/** Stripe events already handled: each event id changes state once. */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: instant('received_at').notNull().defaultNow(),
});
