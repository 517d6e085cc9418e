import { Type, type Static } from 'typebox';
import { EmailSchema, Line, Text } from './common.js';

/** Categories offered by the web form; the API accepts any short label. */
export const CONTACT_CATEGORIES = [
  'サービスについて',
  'プロ会員について',
  'アマチュア会員について',
  '大会・イベントについて',
  '取材・提携のご相談',
  'その他',
] as const;

export const ContactCreateInputSchema = Type.Object(
  {
    name: Line({ max: 40 }),
    email: EmailSchema,
    phone: Type.Optional(
      Type.String({ maxLength: 20, pattern: '^[0-9+()\\- ]*$', 'x-trim': true }),
    ),
    category: Line({ max: 40 }),
    message: Text({ max: 2000 }),
  },
  { additionalProperties: false },
);
export type ContactCreateInput = Static<typeof ContactCreateInputSchema>;

export const ContactCreateResultSchema = Type.Object({
  received: Type.Literal(true),
});
