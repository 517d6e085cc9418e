import { Type, type Static } from 'typebox';
import {
  IdSchema,
  OptionalText,
  Paging,
  Text,
  InputObject,
  Timestamps,
} from './common.js';

/** (wave 2) 口コミ: one per participant per lesson, after the lesson's day. */
export const ReviewSchema = Type.Object({
  id: Type.String(),
  scheduleId: Type.String(),
  proId: Type.String(),
  userId: Type.String(),
  userName: Type.String(),
  rating: Type.Integer({ minimum: 1, maximum: 5 }),
  comment: Type.Optional(Type.String()),
  reply: Type.Optional(Type.String()),
  ...Timestamps,
});
export type Review = Static<typeof ReviewSchema>;

const Rating = Type.Integer({ minimum: 1, maximum: 5 });

export const ReviewCreateInputSchema = InputObject({
  scheduleId: IdSchema,
  rating: Rating,
  comment: Type.Optional(OptionalText(1000)),
});
export type ReviewCreateInput = Static<typeof ReviewCreateInputSchema>;

export const ReviewUpdateInputSchema = InputObject({
  id: IdSchema,
  rating: Type.Optional(Rating),
  comment: Type.Optional(OptionalText(1000)),
});
export type ReviewUpdateInput = Static<typeof ReviewUpdateInputSchema>;

export const ReviewReplyInputSchema = InputObject({
  id: IdSchema,
  reply: Text({ max: 1000 }),
});

export const ReviewListInputSchema = InputObject({
  proId: IdSchema,
  ...Paging(50, 20),
});
export type ReviewListInput = Static<typeof ReviewListInputSchema>;
