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
import { requireAdmin } from '../lib/roles.js';
import { auditRepository } from '../repositories/audit-repository.js';
import { defineRoute } from '../lib/route.js';
import { competitionRepository } from '../repositories/competition-repository.js';
import type { Deps } from './deps.js';

export function competitionRoutes(
  app: FastifyInstance,
  { database, clock }: Deps,
): void {
  const repo = competitionRepository(database.db);
  const audit = auditRepository(database.db);

  defineRoute(app, {
    path: '/competition/read',
    auth: 'optionalBearer',
    buyer: 'allow',
    summary:
      'Competitions by condition, date ascending (drafts for admins only)',
    tags: ['competition'],
    input: CompetitionReadInputSchema,
    output: Type.Array(CompetitionSchema),
    handler: ({ input, caller }) => repo.read(input, caller?.type === 'admin'),
  });

  defineRoute(app, {
    path: '/competition/create',
    auth: 'bearer',
    summary: 'Create a competition (admins); answers the created count',
    tags: ['competition'],
    input: CompetitionCreateInputSchema,
    output: Type.Integer(),
    handler: async ({ input, caller }) => {
      requireAdmin(caller);
      const id = await repo.create(input, clock.now());
      await audit.record(database.db, {
        actorId: caller!.id,
        action: 'competition.create',
        targetId: id,
        detail: { name: input.name, status: input.status },
        at: clock.now(),
      });
      return 1;
    },
  });

  defineRoute(app, {
    path: '/competition/update',
    auth: 'bearer',
    summary:
      'Update a competition and its results (admins); answers the updated count',
    tags: ['competition'],
    input: CompetitionUpdateInputSchema,
    output: Type.Integer(),
    handler: async ({ input, caller }) => {
      requireAdmin(caller);
      const n = await repo.update(input, clock.now());
      if (n) {
        const changed = Object.keys(input).filter(
          (k) => !['id', 'createdAt', 'updatedAt'].includes(k),
        );
        await audit.record(database.db, {
          actorId: caller!.id,
          action: 'competition.update',
          targetId: input.id,
          detail: { fields: changed },
          at: clock.now(),
        });
      }
      return n;
    },
  });

  defineRoute(app, {
    path: '/competition/delete',
    auth: 'bearer',
    summary: 'Delete a competition (admins)',
    tags: ['competition'],
    input: CompetitionIdInputSchema,
    output: DeletedCountSchema,
    handler: async ({ input, caller }) => {
      requireAdmin(caller);
      const deletedCount = await repo.remove(input.id);
      if (deletedCount)
        await audit.record(database.db, {
          actorId: caller!.id,
          action: 'competition.delete',
          targetId: input.id,
          at: clock.now(),
        });
      return { deletedCount };
    },
  });
}
