import type { AuditEntry } from '@proam/contract';
import type { Page } from '../lib/paging.js';
import { newestFirst } from './queries.js';
import type { Db } from '../db/database.js';
import { auditLog } from '../db/schema.js';
import { newId } from '../lib/ids.js';
import { presentOf } from '../lib/present.js';

export function auditRepository(db: Db) {
  return {
    /**
     * Records an admin change. Called on the repositories of the change's own
     * transaction (`repos.transaction`), so the entry commits with the change
     * or neither does.
     */
    async record(entry: {
      actorId: string;
      action: string;
      targetId?: string;
      detail?: Record<string, unknown>;
      at: Date;
    }) {
      await db.insert(auditLog).values({
        id: newId(),
        ...entry,
        targetId: entry.targetId ?? null,
        detail: entry.detail ?? null,
      });
    },
    async list(page: Page): Promise<AuditEntry[]> {
      const rows = await newestFirst(
        db.select().from(auditLog).$dynamic(),
        auditLog.at,
        auditLog.id,
        page,
      );
      return rows.map((r) => ({
        id: r.id,
        actorId: r.actorId,
        action: r.action,
        ...presentOf(r, ['targetId', 'detail']),
        at: r.at.toISOString(),
      }));
    },
  };
}
