import { Type, type Static } from 'typebox';
import {
  DateSchema,
  IdSchema,
  InstantSchema,
  MoneySchema,
  OptionalText,
  PrefectureSchema,
  sizeSchema,
  StringEnum,
  Text,
  TimeSchema,
  InputObject,
  Timestamps,
  EchoedTimestamps,
} from './common.js';
import { Charge } from './fields.js';

export const STATUS_ROUND = [
  'open',
  'full',
  'closed',
  'done',
  'cancelled',
] as const;
export const StatusRoundSchema = StringEnum(STATUS_ROUND);
export type StatusRound = Static<typeof StatusRoundSchema>;

export const RESERVATION_STATUS = [
  'pending',
  'confirmed',
  'cancelled',
] as const;
export const ReservationStatusSchema = StringEnum(RESERVATION_STATUS);
export type ReservationStatus = Static<typeof ReservationStatusSchema>;
export const PAYMENT_STATUS = [
  'none',
  'requires_payment',
  'paid',
  'refunded',
] as const;
export const PaymentStatusSchema = StringEnum(PAYMENT_STATUS);
export type PaymentStatus = Static<typeof PaymentStatusSchema>;

/**
 * (wave 2) A reservation as its amateur sees it. Without online payment it is
 * `confirmed` at once with `amount = fee`, `serviceFee = 0`, `paymentStatus
 * "none"` (paid at the course); `pending` holds a place until it is paid.
 */
export const MyReservationSchema = Type.Object({
  status: ReservationStatusSchema,
  ...Charge,
  paymentStatus: PaymentStatusSchema,
  holdExpiresAt: Type.Optional(InstantSchema),
});
export type MyReservation = Static<typeof MyReservationSchema>;

export const ScheduleSchema = Type.Object({
  id: Type.String(),
  proId: Type.String(),
  date: DateSchema,
  startTime: TimeSchema,
  endTime: TimeSchema,
  place: Type.String(),
  area: Type.Optional(Type.String()),
  capacity: Type.Integer({ minimum: 1, maximum: 4 }),
  fee: MoneySchema,
  note: Type.Optional(Type.String()),
  statusRound: StatusRoundSchema,
  participants: Type.Optional(Type.Array(Type.String())),
  reservedCount: Type.Integer(),
  /** (wave 2) Amateurs waiting for a place (キャンセル待ち), shown to everyone. */
  waitlistCount: Type.Integer({ minimum: 0 }),
  /** (wave 2) The caller's rank in the waitlist, 1-based, when on it. */
  waitlistPosition: Type.Optional(Type.Integer({ minimum: 1 })),
  /** (wave 2) Why the pro called the lesson off (statusRound `cancelled`). */
  callOffReason: Type.Optional(Type.String()),
  /** (wave 2) The caller's reservation, when they have one. */
  myReservation: Type.Optional(MyReservationSchema),
  ...Timestamps,
});
export type Schedule = Static<typeof ScheduleSchema>;

export const MessageSchema = Type.Object({
  partitionKey: Type.String(),
  sort_key: Type.String(),
  msg: Type.String(),
  sender: Type.String(),
  createTime: InstantSchema,
  readBy: Type.Array(Type.String()),
});
export type Message = Static<typeof MessageSchema>;

/** Fields of a lesson the owning pro (or an admin) edits. */
const LessonFields = {
  date: DateSchema,
  startTime: TimeSchema,
  endTime: TimeSchema,
  place: Text({ max: 100 }),
  area: Type.Optional(Type.Union([PrefectureSchema, Type.Literal('')])),
  capacity: Type.Integer({ minimum: 1, maximum: 4 }),
  fee: MoneySchema,
  note: Type.Optional(OptionalText(500)),
  statusRound: Type.Optional(StatusRoundSchema),
};
/** Server-kept fields a client may echo back; they are accepted and ignored. */
const EchoedFields = {
  participants: Type.Optional(
    Type.Array(Type.String({ maxLength: 64 }), { maxItems: 10 }),
  ),
  reservedCount: Type.Optional(Type.Integer()),
  waitlistCount: Type.Optional(Type.Integer()),
  waitlistPosition: Type.Optional(Type.Integer()),
  /** Set only by /schedule/callOff. */
  callOffReason: Type.Optional(Type.String({ maxLength: 200 })),
  myReservation: Type.Optional(MyReservationSchema),
  ...EchoedTimestamps,
};

export const ScheduleCreateInputSchema = InputObject({
  /** The pro offering the lesson: the caller, or any pro when an admin creates it. */
  proId: Type.Optional(IdSchema),
  ...LessonFields,
  ...EchoedFields,
});
export type ScheduleCreateInput = Static<typeof ScheduleCreateInputSchema>;

export const ScheduleUpdateInputSchema = InputObject({
  id: IdSchema,
  /** Ignored on update: a lesson never changes hands. */
  proId: Type.Optional(IdSchema),
  date: Type.Optional(LessonFields.date),
  startTime: Type.Optional(LessonFields.startTime),
  endTime: Type.Optional(LessonFields.endTime),
  place: Type.Optional(LessonFields.place),
  area: LessonFields.area,
  capacity: Type.Optional(LessonFields.capacity),
  fee: Type.Optional(LessonFields.fee),
  note: LessonFields.note,
  statusRound: LessonFields.statusRound,
  ...EchoedFields,
});
export type ScheduleUpdateInput = Static<typeof ScheduleUpdateInputSchema>;

export const ScheduleUserInputSchema = InputObject({ userId: IdSchema });
export const ScheduleByDateInputSchema = InputObject({
  userId: IdSchema,
  date: DateSchema,
});
export const UpdateRoundInputSchema = InputObject({
  proId: IdSchema,
  date: DateSchema,
  statusRound: StatusRoundSchema,
});
export const ScheduleIdInputSchema = InputObject({ id: IdSchema });

/** (wave 2) A pro (or an admin) calls a lesson off, with the reason members see. */
export const CallOffInputSchema = InputObject({
  id: IdSchema,
  reason: Text({ max: 200 }),
});
export type CallOffInput = Static<typeof CallOffInputSchema>;

export const WaitlistJoinedSchema = Type.Object({
  position: Type.Integer({ minimum: 1 }),
});
export const WaitlistLeftSchema = Type.Object({ left: Type.Literal(true) });

/**
 * (wave 2) The last day an amateur may cancel: the day before the lesson's
 * date, until 23:59:59 Japan time. One rule for the server and the screens.
 */
export function cancelDeadlineDate(lessonDate: string): string {
  const d = new Date(`${lessonDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

/** Whether an amateur may still cancel on `todayInJapan` (`YYYY-MM-DD`). */
export const mayCancelOn = (lessonDate: string, todayInJapan: string) =>
  todayInJapan < lessonDate;

export const SortKeySchema = Type.String({
  pattern: '^[0-9A-HJKMNP-TV-Z]{26}$',
});

export const MessageSendInputSchema = InputObject({
  partitionKey: IdSchema,
  msg: Text({ max: 2000 }),
  sender: IdSchema,
  /** Ignored: the server stamps its own receive time. */
  createTime: Type.Optional(Type.String({ maxLength: 40 })),
});
export type MessageSendInput = Static<typeof MessageSendInputSchema>;

export const MessageListInputSchema = InputObject({
  partitionKey: IdSchema,
  before: Type.Optional(SortKeySchema),
  /** (beyond the seed) messages after this sort_key, oldest first: a reconnecting client catches up. */
  after: Type.Optional(SortKeySchema),
  size: Type.Optional(sizeSchema(200, 100)),
});
export type MessageListInput = Static<typeof MessageListInputSchema>;

export const MessageReadInputSchema = InputObject({
  userId: IdSchema,
  msgIdList: Type.Array(SortKeySchema, { maxItems: 500 }),
});

export const UnreadInputSchema = InputObject({
  userId: IdSchema,
  size: Type.Optional(sizeSchema(50, 20)),
});

export const UnreadLessonSchema = Type.Object({
  partitionKey: Type.String(),
  schedule: ScheduleSchema,
  unreadCount: Type.Integer(),
  lastMessage: MessageSchema,
});
export type UnreadLesson = Static<typeof UnreadLessonSchema>;

export const ChatLessonsInputSchema = InputObject({ userId: IdSchema });

/**
 * (beyond the seed) One lesson of the chat list: the caller's lessons that
 * have a chat (the pro's with at least one participant, and the ones the
 * caller reserved), each with its newest message and the caller's unread
 * count. Newest conversation first; lessons without messages after, by date.
 */
export const ChatLessonSchema = Type.Object({
  schedule: ScheduleSchema,
  lastMessage: Type.Union([MessageSchema, Type.Null()]),
  unreadCount: Type.Integer({ minimum: 0 }),
});
export type ChatLesson = Static<typeof ChatLessonSchema>;

/** What the WebSocket at GET /api/ws pushes. */
export type SocketEvent =
  | { type: 'message'; body: Message }
  | {
      type: 'read';
      body: { partitionKey: string; userId: string; sort_keys: string[] };
    };
