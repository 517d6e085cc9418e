import type { FastifyInstance } from 'fastify';
import type { Caller } from './route.js';

/** The admin-managed items whose deletion is a plain remove by id. */
type Removable = 'news' | 'competitions';

/**
 * The handler of an admin's delete call: removes the item and, when there
 * was one, records who removed it, in one transaction so the audit row
 * commits with the change or neither does.
 */
export const auditedDelete =
  (app: FastifyInstance, repo: Removable, action: string) =>
  ({ input, caller }: { input: { id: string }; caller: Caller }) =>
    app.repos.transaction(async (tx) => {
      const deletedCount = await tx[repo].remove(input.id);
      if (deletedCount)
        await tx.audit.record({
          actorId: caller.id,
          action,
          targetId: input.id,
          at: app.clock.now(),
        });
      return { deletedCount };
    });
