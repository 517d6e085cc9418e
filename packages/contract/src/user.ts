import { Type, type Static } from 'typebox';
import { CodeSchema, MemberTypeSchema, UserTypeSchema } from './auth.js';
import {
  EmailSchema,
  InstantSchema,
  Line,
  PasswordSchema,
  MoneySchema,
  OptionalLine,
  OptionalText,
  PrefectureSchema,
} from './common.js';

export const ImageInfoSchema = Type.Object({
  keyName: Type.String(),
  url: Type.String(),
});
export type ImageInfo = Static<typeof ImageInfoSchema>;

export const ProFieldsSchema = Type.Object({
  affiliation: Type.Optional(Type.String()),
  career: Type.Optional(Type.String()),
  lessonFee: Type.Optional(MoneySchema),
  homeCourse: Type.Optional(Type.String()),
  specialty: Type.Optional(Type.String()),
});

export const AmateurFieldsSchema = Type.Object({
  averageScore: Type.Optional(Type.Integer()),
  experienceYears: Type.Optional(Type.Integer()),
});

export const UserSchema = Type.Object({
  id: Type.String(),
  type: UserTypeSchema,
  userName: Type.String(),
  nameKana: Type.Optional(Type.String()),
  area: Type.Optional(Type.String()),
  bio: Type.Optional(Type.String()),
  imageInfo: Type.Array(ImageInfoSchema, { maxItems: 6 }),
  pro: Type.Optional(ProFieldsSchema),
  amateur: Type.Optional(AmateurFieldsSchema),
  likeCount: Type.Integer(),
  createdAt: InstantSchema,
  email: Type.Optional(Type.String()),
});
export type User = Static<typeof UserSchema>;

export const LikeSchema = Type.Object({
  likeId: Type.String(),
  userType: UserTypeSchema,
  userId: Type.String(),
  likeUserId: Type.String(),
  createdAt: InstantSchema,
});
export type Like = Static<typeof LikeSchema>;

/** The profile fields a member edits (registration and /user/update). */
export const ProfileFieldsSchema = {
  nameKana: Type.Optional(OptionalLine(40)),
  area: Type.Optional(Type.Union([PrefectureSchema, Type.Literal('')])),
  bio: Type.Optional(OptionalText(1000)),
  pro: Type.Optional(
    Type.Object(
      {
        affiliation: Type.Optional(OptionalLine(100)),
        career: Type.Optional(OptionalText(1000)),
        lessonFee: Type.Optional(MoneySchema),
        homeCourse: Type.Optional(OptionalLine(100)),
        specialty: Type.Optional(OptionalLine(200)),
      },
      { additionalProperties: false },
    ),
  ),
  amateur: Type.Optional(
    Type.Object(
      {
        averageScore: Type.Optional(Type.Integer({ minimum: 50, maximum: 200 })),
        experienceYears: Type.Optional(Type.Integer({ minimum: 0, maximum: 80 })),
      },
      { additionalProperties: false },
    ),
  ),
};

export const UserCreateInputSchema = Type.Object(
  {
    email: EmailSchema,
    code: CodeSchema,
    password: PasswordSchema,
    userName: Line({ max: 40 }),
    type: MemberTypeSchema,
    ...ProfileFieldsSchema,
  },
  { additionalProperties: false },
);
export type UserCreateInput = Static<typeof UserCreateInputSchema>;
