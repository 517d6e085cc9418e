import { Type, type Static } from 'typebox';

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
  type: UserTypeSchema,
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
