import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { CompetitionReadInputSchema, CompetitionSchema } from '@proam/contract';
import { defineRoute } from '../lib/route.js';
import { competitionRepository } from '../repositories/competition-repository.js';
import type { Deps } from './deps.js';

export function competitionRoutes(app: FastifyInstance, { database }: Deps): void {
  const repo = competitionRepository(database.db);

  defineRoute(app, {
    path: '/competition/read',
    auth: 'optionalBearer',
    summary: 'Competitions by condition, date ascending (drafts for admins only)',
    tags: ['competition'],
    input: CompetitionReadInputSchema,
    output: Type.Array(CompetitionSchema),
    handler: ({ input, caller }) => repo.read(input, caller?.type === 'admin'),
  });
}
