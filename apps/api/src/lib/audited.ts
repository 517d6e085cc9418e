import type { FastifyInstance } from 'fastify';
import { ApiError } from './api-error.js';
import type { Caller } from './route.js';

/** The repositories bound to one transaction (`app.repos.transaction`). */
type Tx = Parameters<Parameters<FastifyInstance['repos']['transaction']>[0]>[0];

/** What an admin change writes to the audit log (the actor and time are added). */
export type AuditEntry = {
  action: string;
  targetId: string;
  detail?: Record<string, unknown>;
};

/**
 * Runs an admin's change and records it in the audit log in one transaction,
 * so the entry commits with the change or neither does. A change that finds
 * nothing to change (null or undefined) is 404 NotFound; `entry` answers null
 * when the change did nothing worth recording (say, 0 rows).
 */
export const audited = <T>(
  app: FastifyInstance,
  caller: Caller,
  change: (tx: Tx, now: Date) => Promise<T | null | undefined>,
  entry: (done: T) => AuditEntry | null,
): Promise<T> =>
  app.repos.transaction(async (tx) => {
    const now = app.clock.now();
    const done = await change(tx, now);
    if (done === null || done === undefined) throw new ApiError('NotFound');
    const recorded = entry(done);
    if (recorded)
      await tx.audit.record({ actorId: caller.id, ...recorded, at: now });
    return done;
  });

/** The admin-managed items whose deletion is a plain remove by id. */
type Removable = 'news' | 'competitions';

/** The handler of an admin's delete call: removes the item and, when there was one, records who removed it. */
export const auditedDelete =
  (app: FastifyInstance, repo: Removable, action: string) =>
  async ({ input, caller }: { input: { id: string }; caller: Caller }) => ({
    deletedCount: await audited(
      app,
      caller,
      (tx) => tx[repo].remove(input.id),
      (n) => (n ? { action, targetId: input.id } : null),
    ),
  });
