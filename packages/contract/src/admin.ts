import { Type, type Static } from 'typebox';
import {
  IdSchema,
  Line,
  OptionalText,
  PageSchema,
  sizeSchema,
} from './common.js';
import { MemberTypeSchema } from './auth.js';

/** (wave 2) /admin/users: members as admins search them (with e-mail). */
export const AdminUsersInputSchema = Type.Object(
  {
    type: Type.Optional(Type.Union([MemberTypeSchema, Type.Literal('admin')])),
    verified: Type.Optional(Type.Boolean()),
    keyword: Type.Optional(Line({ max: 100 })),
    page: Type.Optional(PageSchema),
    size: Type.Optional(sizeSchema(100, 50)),
  },
  { additionalProperties: false },
);
export type AdminUsersInput = Static<typeof AdminUsersInputSchema>;

export const VerifyProInputSchema = Type.Object(
  { id: IdSchema, verified: Type.Boolean() },
  { additionalProperties: false },
);

export const SuspendInputSchema = Type.Object(
  {
    id: IdSchema,
    suspended: Type.Boolean(),
    reason: Type.Optional(OptionalText(500)),
  },
  { additionalProperties: false },
);
export type SuspendInput = Static<typeof SuspendInputSchema>;
