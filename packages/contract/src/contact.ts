import { Type, type Static } from 'typebox';
import {
  EmailSchema,
  IdSchema,
  Line,
  Text,
  InputObject,
  Paging,
} from './common.js';

/** Categories offered by the web form; the API accepts any short label. */
export const CONTACT_CATEGORIES = [
  'サービスについて',
  'プロ会員について',
  'アマチュア会員について',
  '大会・イベントについて',
  '取材・提携のご相談',
  'その他',
] as const;

export const ContactCreateInputSchema = InputObject({
  name: Line({ max: 40 }),
  email: EmailSchema,
  phone: Type.Optional(
    Type.String({
      maxLength: 20,
      pattern: '^[0-9+()\\- ]*$',
      'x-trim': true,
    }),
  ),
  category: Line({ max: 40 }),
  message: Text({ max: 2000 }),
});
export type ContactCreateInput = Static<typeof ContactCreateInputSchema>;

export const ContactCreateResultSchema = Type.Object({
  received: Type.Literal(true),
});

export const ContactMessageSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  phone: Type.Optional(Type.String()),
  category: Type.String(),
  message: Type.String(),
  handled: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
});
export type ContactMessage = Static<typeof ContactMessageSchema>;

export const ContactListInputSchema = InputObject({
  handled: Type.Optional(Type.Boolean()),
  ...Paging(100, 50),
});
export const ContactUpdateInputSchema = InputObject({
  id: IdSchema,
  handled: Type.Boolean(),
});

export const AuditEntrySchema = Type.Object({
  id: Type.String(),
  actorId: Type.String(),
  action: Type.String(),
  targetId: Type.Optional(Type.String()),
  detail: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  at: Type.String({ format: 'date-time' }),
});
export type AuditEntry = Static<typeof AuditEntrySchema>;
export const AuditListInputSchema = InputObject({
  ...Paging(200, 50),
});
