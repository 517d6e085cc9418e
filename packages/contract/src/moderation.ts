import { Type, type Static } from 'typebox';
import {
  IdSchema,
  InstantSchema,
  Paging,
  StringEnum,
  Text,
  InputObject,
} from './common.js';

/**
 * (wave 2, beyond the original API description) A member reports
 * a profile, a review or a chat message to the company; admins resolve it.
 */
export const REPORT_TARGETS = ['user', 'review', 'message'] as const;
export const ReportTargetSchema = StringEnum(REPORT_TARGETS);

export const ReportCreateInputSchema = InputObject({
  targetType: ReportTargetSchema,
  /** A user id, a review id, or a message as `<lesson id>:<sort_key>`. */
  targetId: Type.String({ minLength: 1, maxLength: 100 }),
  reason: Text({ max: 1000 }),
});
export type ReportCreateInput = Static<typeof ReportCreateInputSchema>;

/** A report stays open until an admin resolves it. */
const ReportStatusSchema = StringEnum(['open', 'resolved'] as const);

export const ReportSchema = Type.Object({
  id: Type.String(),
  reporterId: Type.String(),
  targetType: ReportTargetSchema,
  targetId: Type.String(),
  reason: Type.String(),
  status: ReportStatusSchema,
  resolution: Type.Optional(Type.String()),
  createdAt: InstantSchema,
  resolvedAt: Type.Optional(InstantSchema),
});
export type Report = Static<typeof ReportSchema>;

export const ReportListInputSchema = InputObject({
  status: Type.Optional(ReportStatusSchema),
  ...Paging(100, 50),
});

export const ReportResolveInputSchema = InputObject({
  id: IdSchema,
  resolution: Text({ max: 1000 }),
});

/** Blocking: `userId` is the member to block or unblock (the caller blocks). */
export const BlockInputSchema = InputObject({ userId: IdSchema });
export const BlockListSchema = Type.Array(Type.String());
