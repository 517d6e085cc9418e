import { Type, type Static, type TSchema } from 'typebox';
import {
  DateSchema,
  IdSchema,
  MoneySchema,
  StringEnum,
  Line,
  OptionalText,
  PrefectureSchema,
  InputObject,
  Timestamps,
  EchoedTimestamps,
} from './common.js';

export const COMPETITION_STATUS = [
  'draft',
  'open',
  'closed',
  'finished',
] as const;
export const CompetitionStatusSchema = StringEnum(COMPETITION_STATUS);
export type CompetitionStatus = Static<typeof CompetitionStatusSchema>;

export const CompetitionResultSchema = Type.Object({
  rank: Type.Integer({ minimum: 1, maximum: 10_000 }),
  playerName: Line({ max: 40 }),
  userId: Type.Optional(IdSchema),
  score: Type.Optional(Type.Integer({ minimum: -100, maximum: 1_000 })),
});
export type CompetitionResult = Static<typeof CompetitionResultSchema>;

export const CompetitionSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  date: DateSchema,
  venue: Type.String(),
  area: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  capacity: Type.Optional(Type.Integer()),
  entryFee: Type.Optional(MoneySchema),
  entryDeadline: Type.Optional(DateSchema),
  status: CompetitionStatusSchema,
  results: Type.Array(CompetitionResultSchema),
  ...Timestamps,
});
export type Competition = Static<typeof CompetitionSchema>;

export const CompetitionReadInputSchema = InputObject({
  id: Type.Optional(IdSchema),
  status: Type.Optional(CompetitionStatusSchema),
  from: Type.Optional(DateSchema),
  to: Type.Optional(DateSchema),
  keyword: Type.Optional(Line({ max: 100 })),
});
export type CompetitionReadInput = Static<typeof CompetitionReadInputSchema>;

const CapacitySchema = Type.Integer({ minimum: 1, maximum: 10_000 });

const CompetitionFields = {
  name: Line({ max: 100 }),
  date: DateSchema,
  venue: Line({ max: 100 }),
  area: Type.Optional(Type.Union([PrefectureSchema, Type.Literal('')])),
  description: Type.Optional(OptionalText(2000)),
  capacity: Type.Optional(CapacitySchema),
  entryFee: Type.Optional(MoneySchema),
  entryDeadline: Type.Optional(Type.Union([DateSchema, Type.Literal('')])),
  status: CompetitionStatusSchema,
  results: Type.Optional(
    Type.Array(InputObject(CompetitionResultSchema.properties), {
      maxItems: 500,
    }),
  ),
};

export const CompetitionCreateInputSchema = InputObject({
  ...CompetitionFields,
  ...EchoedTimestamps,
});
export type CompetitionCreateInput = Static<
  typeof CompetitionCreateInputSchema
>;

/**
 * A field left out keeps its value. An optional field is cleared with '' (a
 * text or the deadline) or `null` (a number: 定員, 参加費). API.md's
 * /competition/update takes "body `Competition` with `id`", where these
 * fields are optional: accepting `null` for them is a compatible extension,
 * the only way to take a number off an edited competition.
 */
const clearable = <T extends TSchema>(schema: T) =>
  Type.Optional(Type.Union([schema, Type.Null()]));

export const CompetitionUpdateInputSchema = InputObject({
  id: IdSchema,
  name: Type.Optional(CompetitionFields.name),
  date: Type.Optional(CompetitionFields.date),
  venue: Type.Optional(CompetitionFields.venue),
  area: CompetitionFields.area,
  description: CompetitionFields.description,
  capacity: clearable(CapacitySchema),
  entryFee: clearable(MoneySchema),
  entryDeadline: CompetitionFields.entryDeadline,
  status: Type.Optional(CompetitionFields.status),
  results: CompetitionFields.results,
  ...EchoedTimestamps,
});
export type CompetitionUpdateInput = Static<
  typeof CompetitionUpdateInputSchema
>;

export const CompetitionIdInputSchema = InputObject({ id: IdSchema });
