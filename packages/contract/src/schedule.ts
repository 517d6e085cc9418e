import { Type, type Static } from 'typebox';
import { StringEnum, DateSchema, InstantSchema, MoneySchema, TimeSchema } from './common.js';

export const STATUS_ROUND = ['open', 'full', 'closed', 'done', 'cancelled'] as const;
export const StatusRoundSchema = StringEnum(STATUS_ROUND);
export type StatusRound = Static<typeof StatusRoundSchema>;

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
  createdAt: InstantSchema,
  updatedAt: InstantSchema,
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
