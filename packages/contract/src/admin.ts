import { Type, type Static } from 'typebox';
import {
  DateSchema,
  IdSchema,
  InstantSchema,
  Line,
  OptionalText,
  Paging,
  InputObject,
} from './common.js';
import { MemberTypeSchema } from './auth.js';

/** (wave 2) /admin/users: members as admins search them (with e-mail). */
export const AdminUsersInputSchema = InputObject({
  type: Type.Optional(Type.Union([MemberTypeSchema, Type.Literal('admin')])),
  verified: Type.Optional(Type.Boolean()),
  keyword: Type.Optional(Line({ max: 100 })),
  ...Paging(100, 50),
});
export type AdminUsersInput = Static<typeof AdminUsersInputSchema>;

export const VerifyProInputSchema = InputObject({
  id: IdSchema,
  verified: Type.Boolean(),
});

export const SuspendInputSchema = InputObject({
  id: IdSchema,
  suspended: Type.Boolean(),
  reason: Type.Optional(OptionalText(500)),
});
export type SuspendInput = Static<typeof SuspendInputSchema>;

/**
 * (wave 2) /admin/stats: the 運営ダッシュボード's weekly figures. Weeks are
 * Japan-time weeks starting on Monday 00:00 (ISO weeks); `weeks` counts back
 * from the current one, which is included (so far).
 */
export const AdminStatsInputSchema = InputObject({
  weeks: Type.Optional(Type.Integer({ minimum: 1, maximum: 52, default: 12 })),
});
export type AdminStatsInput = Static<typeof AdminStatsInputSchema>;

export const WeeklyStatsSchema = Type.Object({
  /** The week's Monday, `YYYY-MM-DD` (Japan). */
  weekStart: DateSchema,
  /** Amateurs and pros registered that week (admins and buyers are not members). */
  newMembers: Type.Integer({ minimum: 0 }),
  /**
   * Reservations made that week (whatever became of them later). Counted from
   * the reservation rows as they are now: a member who cancels and books the
   * same lesson again counts once, in the week of the new booking.
   */
  reservations: Type.Integer({ minimum: 0 }),
  /**
   * Reservations the amateur cancelled that week and still cancelled. A lesson
   * called off keeps its reservations, so it is not counted here.
   */
  cancellations: Type.Integer({ minimum: 0 }),
  reviews: Type.Integer({ minimum: 0 }),
  chatMessages: Type.Integer({ minimum: 0 }),
});
export type WeeklyStats = Static<typeof WeeklyStatsSchema>;

export const AdminStatsSchema = Type.Object({
  /** Oldest week first; every week present, with zeros where nothing happened. */
  weeks: Type.Array(WeeklyStatsSchema),
  /** When the figures were counted. */
  generatedAt: InstantSchema,
});
export type AdminStats = Static<typeof AdminStatsSchema>;

/**
 * (wave 2) /admin/reportContexts: for the 通報 list, who reported and what
 * the reported thing says, by report id. Anything since deleted is left out.
 */
export const ReportContextInputSchema = InputObject({
  ids: Type.Array(IdSchema, { minItems: 1, maxItems: 100 }),
});

export const ReportContextSchema = Type.Object({
  id: Type.String(),
  reporterName: Type.Optional(Type.String()),
  /** The reported member (a profile), or the author of the review or message. */
  targetUserId: Type.Optional(Type.String()),
  targetUserName: Type.Optional(Type.String()),
  targetUserType: Type.Optional(Type.String()),
  /** A reported review's pro (their profile lists the review). */
  proId: Type.Optional(Type.String()),
  /** The review's comment or the chat message's text. */
  targetText: Type.Optional(Type.String()),
  /** The review's rating (1–5). */
  rating: Type.Optional(Type.Integer()),
  /** The lesson the review or the message belongs to. */
  scheduleId: Type.Optional(Type.String()),
});
export type ReportContext = Static<typeof ReportContextSchema>;
