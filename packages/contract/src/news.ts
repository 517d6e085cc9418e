import { Type, type Static } from 'typebox';
import { IdSchema, InstantSchema, PageSchema, sizeSchema } from './common.js';

export const NewsSchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  body: Type.String(),
  category: Type.Optional(Type.String()),
  imageUrl: Type.Optional(Type.String()),
  publishedAt: InstantSchema,
});
export type News = Static<typeof NewsSchema>;

export const NewsReadInputSchema = Type.Object(
  { id: IdSchema },
  { additionalProperties: false },
);
export type NewsReadInput = Static<typeof NewsReadInputSchema>;

export const NewsReadAllInputSchema = Type.Object(
  {
    page: Type.Optional(PageSchema),
    size: Type.Optional(sizeSchema(50, 20)),
  },
  { additionalProperties: false },
);
export type NewsReadAllInput = Static<typeof NewsReadAllInputSchema>;
