import { Type, type Static } from 'typebox';
import {
  IdSchema,
  InstantSchema,
  PageSchema,
  sizeSchema,
  StringEnum,
  Text,
} from './common.js';

/**
 * (wave 2, beyond API.md: issue 16 asked the contract of us) A member reports
 * a profile, a review or a chat message to the company; admins resolve it.
 */
export const REPORT_TARGETS = ['user', 'review', 'message'] as const;
export const ReportTargetSchema = StringEnum(REPORT_TARGETS);

export const ReportCreateInputSchema = Type.Object(
  {
    targetType: ReportTargetSchema,
    /** A user id, a review id, or a message as `<lesson id>:<sort_key>`. */
    targetId: Type.String({ minLength: 1, maxLength: 100 }),
    reason: Text({ max: 1000 }),
  },
  { additionalProperties: false },
);
export type ReportCreateInput = Static<typeof ReportCreateInputSchema>;

export const ReportSchema = Type.Object({
  id: Type.String(),
  reporterId: Type.String(),
  targetType: ReportTargetSchema,
  targetId: Type.String(),
  reason: Type.String(),
  status: StringEnum(['open', 'resolved'] as const),
  resolution: Type.Optional(Type.String()),
  createdAt: InstantSchema,
  resolvedAt: Type.Optional(InstantSchema),
});
export type Report = Static<typeof ReportSchema>;

export const ReportListInputSchema = Type.Object(
  {
    status: Type.Optional(StringEnum(['open', 'resolved'] as const)),
    page: Type.Optional(PageSchema),
    size: Type.Optional(sizeSchema(100, 50)),
  },
  { additionalProperties: false },
);

export const ReportResolveInputSchema = Type.Object(
  { id: IdSchema, resolution: Text({ max: 1000 }) },
  { additionalProperties: false },
);

/** Blocking: `userId` is the member to block or unblock (the caller blocks). */
export const BlockInputSchema = Type.Object(
  { userId: IdSchema },
  { additionalProperties: false },
);
export const BlockListSchema = Type.Array(Type.String());
