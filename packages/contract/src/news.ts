import { Type, type Static } from 'typebox';
import {
  IdSchema,
  InstantSchema,
  Line,
  OptionalLine,
  Paging,
  Text,
  InputObject,
} from './common.js';

export const NewsSchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  body: Type.String(),
  category: Type.Optional(Type.String()),
  imageUrl: Type.Optional(Type.String()),
  publishedAt: InstantSchema,
});
export type News = Static<typeof NewsSchema>;

export const NewsReadInputSchema = InputObject({ id: IdSchema });
export type NewsReadInput = Static<typeof NewsReadInputSchema>;

export const NewsReadAllInputSchema = InputObject({
  ...Paging(50, 20),
});
export type NewsReadAllInput = Static<typeof NewsReadAllInputSchema>;

export const NewsCreateInputSchema = InputObject({
  title: Line({ max: 120 }),
  body: Text({ max: 10_000 }),
  category: Type.Optional(OptionalLine(30)),
  imageUrl: Type.Optional(
    Type.Union([
      Type.String({
        maxLength: 500,
        pattern: '^(https://|/media/)[^\\s"<>]*$',
      }),
      Type.Literal(''),
    ]),
  ),
  /** Omitted: now. In the future: scheduled, hidden from the public until then. */
  publishedAt: Type.Optional(InstantSchema),
});
export type NewsCreateInput = Static<typeof NewsCreateInputSchema>;

export const NewsUpdateInputSchema = InputObject({
  id: IdSchema,
  title: Type.Optional(NewsCreateInputSchema.properties.title),
  body: Type.Optional(NewsCreateInputSchema.properties.body),
  category: NewsCreateInputSchema.properties.category,
  imageUrl: NewsCreateInputSchema.properties.imageUrl,
  publishedAt: NewsCreateInputSchema.properties.publishedAt,
});
export type NewsUpdateInput = Static<typeof NewsUpdateInputSchema>;

/** Admins list every item, scheduled ones included. */
export const NewsAdminListInputSchema = InputObject({
  ...Paging(100, 50),
});
