import { desc } from 'drizzle-orm';
import type { AuditEntry } from '@proam/contract';
import type { Db } from '../db/database.js';
import { auditLog } from '../db/schema.js';
import { newId } from '../lib/ids.js';

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
    async list(page: number, size: number): Promise<AuditEntry[]> {
      const rows = await db
        .select()
        .from(auditLog)
        .orderBy(desc(auditLog.at), desc(auditLog.id))
        .limit(size)
        .offset((page - 1) * size);
      return rows.map((r) => ({
        id: r.id,
        actorId: r.actorId,
        action: r.action,
        ...(r.targetId ? { targetId: r.targetId } : {}),
        ...(r.detail ? { detail: r.detail } : {}),
        at: r.at.toISOString(),
      }));
    },
  };
}
