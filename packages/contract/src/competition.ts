import { Type, type Static } from 'typebox';
import {
  DateSchema,
  IdSchema,
  InstantSchema,
  MoneySchema,
  StringEnum,
  Line,
} from './common.js';

export const COMPETITION_STATUS = ['draft', 'open', 'closed', 'finished'] as const;
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
  createdAt: InstantSchema,
  updatedAt: InstantSchema,
});
export type Competition = Static<typeof CompetitionSchema>;

export const CompetitionReadInputSchema = Type.Object(
  {
    id: Type.Optional(IdSchema),
    status: Type.Optional(CompetitionStatusSchema),
    from: Type.Optional(DateSchema),
    to: Type.Optional(DateSchema),
    keyword: Type.Optional(Line({ max: 100 })),
  },
  { additionalProperties: false },
);
export type CompetitionReadInput = Static<typeof CompetitionReadInputSchema>;
