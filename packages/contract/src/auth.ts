import { Type, type Static } from 'typebox';
import { EmailSchema, PasswordSchema, InputObject } from './common.js';

export const UserTypeSchema = Type.Union([
  Type.Literal('pro'),
  Type.Literal('amature'),
  Type.Literal('admin'),
]);
export type UserType = Static<typeof UserTypeSchema>;

/** Member types a person can register as (admins are created by the company). */
export const MemberTypeSchema = Type.Union([
  Type.Literal('pro'),
  Type.Literal('amature'),
]);
export type MemberType = Static<typeof MemberTypeSchema>;

export const AuthUserSchema = Type.Object({
  id: Type.String(),
  userName: Type.String(),
  /** BUYER only for a session started by punch-out check-in. */
  type: Type.Union([UserTypeSchema, Type.Literal('BUYER')]),
  /**
   * (wave 2) Whether the member has agreed to the current TERMS_VERSION; false
   * asks them again before the member area. Left out for punch-out buyers.
   */
  termsAccepted: Type.Optional(Type.Boolean()),
});
export type AuthUser = Static<typeof AuthUserSchema>;

export const TokenSchema = Type.Object({
  accessToken: Type.String(),
  refreshToken: Type.String(),
});
export type Token = Static<typeof TokenSchema>;

export const LoginResultSchema = Type.Object({
  token: TokenSchema,
  user: AuthUserSchema,
});
export type LoginResult = Static<typeof LoginResultSchema>;

export const HandshakeResultSchema = Type.Object({
  token: TokenSchema,
  user: AuthUserSchema,
  serverTime: Type.String({ format: 'date-time' }),
});
export type HandshakeResult = Static<typeof HandshakeResultSchema>;

export const CodeSendInputSchema = InputObject({ email: EmailSchema });
export type CodeSendInput = Static<typeof CodeSendInputSchema>;

export const SentSchema = Type.Object({ sent: Type.Literal(true) });

export const LoginInputSchema = InputObject({
  mail: EmailSchema,
  password: Type.String({ minLength: 1, maxLength: 1024 }),
});
export type LoginInput = Static<typeof LoginInputSchema>;

/** Registration codes are 6 digits, reset codes 8. */
export const CodeSchema = Type.String({ pattern: '^[0-9]{6,8}$' });

export const PasswordUpdateInputSchema = InputObject({
  email: EmailSchema,
  password: PasswordSchema,
  code: CodeSchema,
});
export type PasswordUpdateInput = Static<typeof PasswordUpdateInputSchema>;

export const AccountDeleteInputSchema = InputObject({
  email: EmailSchema,
  password: Type.String({ minLength: 1, maxLength: 1024 }),
});
export type AccountDeleteInput = Static<typeof AccountDeleteInputSchema>;

export const NoInputSchema = InputObject({});

export const UpdatedSchema = Type.Object({ updated: Type.Literal(true) });
export const DeletedSchema = Type.Object({ deleted: Type.Literal(true) });
export const LoggedOutSchema = Type.Object({ loggedOut: Type.Literal(true) });

/** What a purchasing system sent at punch-out, kept by the client under `checkin`. */
export const CheckinSchema = Type.Object({
  punchOutSetupRequest: Type.Object({
    userId: Type.String(),
    userName: Type.String(),
    buyer: Type.String(),
    buyerCookie: Type.String(),
    browserFormPost: Type.String(),
  }),
  checkedInAt: Type.String({ format: 'date-time' }),
});
export type Checkin = Static<typeof CheckinSchema>;

export const CheckinInputSchema = InputObject({
  ticket: Type.String({
    minLength: 20,
    maxLength: 100,
    pattern: '^[A-Za-z0-9_-]+$',
  }),
});

export const CheckinResultSchema = Type.Object({
  checkin: CheckinSchema,
  token: TokenSchema,
  user: AuthUserSchema,
});
export type CheckinResult = Static<typeof CheckinResultSchema>;
