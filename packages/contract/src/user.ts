import { Type, type Static } from 'typebox';
import { CodeSchema, MemberTypeSchema, UserTypeSchema } from './auth.js';
import { TermsVersionSchema } from './legal.js';
import {
  DateSchema,
  IdSchema,
  Paging,
  sizeSchema,
  StringEnum,
  EmailSchema,
  InstantSchema,
  Line,
  PasswordSchema,
  MoneySchema,
  OptionalLine,
  OptionalText,
  PrefectureSchema,
  InputObject,
} from './common.js';

export const ImageInfoSchema = Type.Object({
  keyName: Type.String(),
  url: Type.String(),
});
export type ImageInfo = Static<typeof ImageInfoSchema>;

export const ProFieldsSchema = Type.Object({
  /** (wave 2) Checked by the company (false: 確認中, left out of lists and not bookable). */
  verified: Type.Boolean(),
  /** (wave 2) ★ average to one decimal; null without reviews. */
  ratingAverage: Type.Union([
    Type.Number({ minimum: 1, maximum: 5 }),
    Type.Null(),
  ]),
  reviewCount: Type.Integer({ minimum: 0 }),
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
  /** (wave 2) Shown to admins only: the member is suspended, and why. */
  suspended: Type.Optional(Type.Boolean()),
  suspendReason: Type.Optional(Type.String()),
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
    InputObject({
      affiliation: Type.Optional(OptionalLine(100)),
      career: Type.Optional(OptionalText(1000)),
      /** null clears it. */
      lessonFee: Type.Optional(Type.Union([MoneySchema, Type.Null()])),
      homeCourse: Type.Optional(OptionalLine(100)),
      specialty: Type.Optional(OptionalLine(200)),
      /** Kept by the server: accepted when a client sends a profile back as read, and ignored. */
      verified: Type.Optional(Type.Boolean()),
      ratingAverage: Type.Optional(
        Type.Union([Type.Number({ minimum: 0, maximum: 5 }), Type.Null()]),
      ),
      reviewCount: Type.Optional(Type.Integer({ minimum: 0 })),
    }),
  ),
  amateur: Type.Optional(
    InputObject({
      averageScore: Type.Optional(
        Type.Union([Type.Integer({ minimum: 50, maximum: 200 }), Type.Null()]),
      ),
      experienceYears: Type.Optional(
        Type.Union([Type.Integer({ minimum: 0, maximum: 80 }), Type.Null()]),
      ),
    }),
  ),
};

export const UserCreateInputSchema = InputObject({
  email: EmailSchema,
  code: CodeSchema,
  password: PasswordSchema,
  userName: Line({ max: 40 }),
  type: MemberTypeSchema,
  ...ProfileFieldsSchema,
  /**
   * (wave 2) The TERMS_VERSION the person agreed to on the form. Optional so
   * older clients keep registering; without it the member is asked at login.
   */
  termsVersion: Type.Optional(TermsVersionSchema),
});
export type UserCreateInput = Static<typeof UserCreateInputSchema>;

export const UserReadInputSchema = InputObject({ id: IdSchema });

/**
 * /user/update takes the User object the client holds. Fields a caller may not
 * set (`type`, `email`, `likeCount`, `createdAt`, `imageInfo`) are accepted and
 * ignored; `id` names whose profile (the caller's own unless an admin).
 */
export const UserUpdateInputSchema = InputObject({
  id: Type.Optional(IdSchema),
  type: Type.Optional(UserTypeSchema),
  email: Type.Optional(Type.String({ maxLength: 254 })),
  likeCount: Type.Optional(Type.Integer()),
  createdAt: Type.Optional(Type.String({ maxLength: 40 })),
  imageInfo: Type.Optional(Type.Array(ImageInfoSchema, { maxItems: 6 })),
  /** Set by admins through /admin/suspend; accepted as read and ignored. */
  suspended: Type.Optional(Type.Boolean()),
  suspendReason: Type.Optional(Type.String({ maxLength: 500 })),
  userName: Type.Optional(Line({ max: 40 })),
  ...ProfileFieldsSchema,
});
export type UserUpdateInput = Static<typeof UserUpdateInputSchema>;

export const IdListInputSchema = InputObject({
  idList: Type.Array(IdSchema, { minItems: 0, maxItems: 100 }),
});

export const KeyNameSchema = Type.String({
  maxLength: 200,
  pattern:
    '^users/[0-9A-HJKMNP-TV-Z]{26}/[A-Za-z0-9_-]{16,64}\\.(jpg|png|webp|gif)$',
});

export const ImageInfoInputSchema = InputObject({
  imageInfo: Type.Array(
    InputObject({
      keyName: KeyNameSchema,
      url: Type.Optional(Type.String({ maxLength: 500 })),
    }),
    { maxItems: 6 },
  ),
});
export type ImageInfoInput = Static<typeof ImageInfoInputSchema>;

export const PageInputSchema = InputObject({
  ...Paging(100, 20),
});

export const SizeInputSchema = InputObject({
  size: Type.Optional(sizeSchema(100, 20)),
});

export const PRO_SORTS = ['new', 'likes', 'fee', 'rating'] as const;
export const ProConditionInputSchema = InputObject({
  area: Type.Optional(PrefectureSchema),
  keyword: Type.Optional(Line({ max: 100 })),
  feeMin: Type.Optional(MoneySchema),
  feeMax: Type.Optional(MoneySchema),
  date: Type.Optional(DateSchema),
  sort: Type.Optional(StringEnum(PRO_SORTS)),
  ...Paging(100, 20),
});
export type ProConditionInput = Static<typeof ProConditionInputSchema>;

export const LikeQueryInputSchema = InputObject({
  userType: UserTypeSchema,
  userId: IdSchema,
});
export const LikePairInputSchema = InputObject({
  userId: IdSchema,
  likeUserId: IdSchema,
});

/** The largest image the server stores, decoded (docs/api.md, Storage). */
export const MAX_UPLOAD_IMAGE_BYTES = 5 * 1024 * 1024;
/**
 * The body limit of `/storage/upload` and `/storage/update`: room for a
 * 5 MiB image in base64 (6.7 MiB) with a `data:` prefix and the JSON around it.
 */
export const UPLOAD_BODY_LIMIT_BYTES = 8 * 1024 * 1024;

/**
 * An image as base64. Its length is bounded by the body limit, not here: a
 * member whose photo is too large must hear 413 PayloadTooLarge
 * (ファイルサイズが大きすぎます), which the server answers once it has
 * decoded more than MAX_UPLOAD_IMAGE_BYTES, not a ValidationError about `data`.
 */
const ImageDataSchema = Type.String({
  minLength: 1,
  maxLength: UPLOAD_BODY_LIMIT_BYTES,
  description: `Base64 of the image, optionally with a data: URL prefix; at most ${MAX_UPLOAD_IMAGE_BYTES} bytes decoded (413 PayloadTooLarge above).`,
});

/** Uploads: base64 data, images only, judged by their bytes. */
export const UploadInputSchema = InputObject({
  fileName: Type.Optional(Type.String({ maxLength: 255 })),
  contentType: Type.Optional(Type.String({ maxLength: 100 })),
  data: ImageDataSchema,
});
export const StorageUpdateInputSchema = InputObject({
  keyName: KeyNameSchema,
  contentType: Type.Optional(Type.String({ maxLength: 100 })),
  data: ImageDataSchema,
});
export const StorageDeleteInputSchema = InputObject({ keyName: KeyNameSchema });

export const UserIdInputSchema = InputObject({ userId: IdSchema });
