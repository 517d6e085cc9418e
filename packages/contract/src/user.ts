import { Type, type Static } from 'typebox';
import { UserTypeSchema } from './auth.js';
import { InstantSchema, MoneySchema } from './common.js';

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
