import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import {
  CompetitionCreateInputSchema,
  CompetitionIdInputSchema,
  CompetitionReadInputSchema,
  CompetitionSchema,
  CompetitionUpdateInputSchema,
  DeletedCountSchema,
} from '@proam/contract';
import { audited, auditedDelete } from '../lib/audited.js';
import { defineRoute, MEMBERS_AND_BUYERS } from '../lib/route.js';

/** Up to 500 results with Japanese names: about 100 KB, above the default body limit. */
const RESULTS_BODY_LIMIT = 256 * 1024;

export function competitionRoutes(app: FastifyInstance): void {
  const { repos } = app;

  defineRoute(app, {
    path: '/competition/read',
    auth: 'optionalBearer',
    roles: MEMBERS_AND_BUYERS,
    summary:
      'Competitions by condition, date ascending (drafts for admins only)',
    tags: ['competition'],
    input: CompetitionReadInputSchema,
    output: Type.Array(CompetitionSchema),
    cachedAnswers: true,
    handler: ({ input, caller }) =>
      repos.competitions.read(input, caller?.type === 'admin'),
  });

  defineRoute(app, {
    path: '/competition/create',
    auth: 'admin',
    summary: 'Create a competition (admins); answers the created count',
    tags: ['competition'],
    input: CompetitionCreateInputSchema,
    bodyLimit: RESULTS_BODY_LIMIT,
    output: Type.Integer(),
    handler: async ({ input, caller }) => {
      await audited(
        app,
        caller,
        (tx, now) => tx.competitions.create(input, now),
        (id) => ({
          action: 'competition.create',
          targetId: id,
          detail: { name: input.name, status: input.status },
        }),
      );
      return 1;
    },
  });

  defineRoute(app, {
    path: '/competition/update',
    auth: 'admin',
    summary:
      'Update a competition and its results (admins); answers the updated count',
    tags: ['competition'],
    input: CompetitionUpdateInputSchema,
    bodyLimit: RESULTS_BODY_LIMIT,
    output: Type.Integer(),
    handler: ({ input, caller }) =>
      audited(
        app,
        caller,
        (tx, now) => tx.competitions.update(input, now),
        (n) =>
          n
            ? {
                action: 'competition.update',
                targetId: input.id,
                detail: {
                  fields: Object.keys(input).filter(
                    (k) => !['id', 'createdAt', 'updatedAt'].includes(k),
                  ),
                },
              }
            : null,
      ),
  });

  defineRoute(app, {
    path: '/competition/delete',
    auth: 'admin',
    summary: 'Delete a competition (admins)',
    tags: ['competition'],
    input: CompetitionIdInputSchema,
    output: DeletedCountSchema,
    handler: auditedDelete(app, 'competitions', 'competition.delete'),
  });
}
