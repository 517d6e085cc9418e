import { eq } from 'drizzle-orm';
import type { ContactCreateInput, ContactMessage } from '@proam/contract';
import type { Page } from '../lib/paging.js';
import { newestFirst } from './queries.js';
import type { Db } from '../db/database.js';
import { contacts } from '../db/schema.js';
import { newId } from '../lib/ids.js';

export function contactRepository(db: Db) {
  return {
    async create(input: ContactCreateInput): Promise<string> {
      const id = newId();
      await db.insert(contacts).values({
        id,
        name: input.name,
        email: input.email,
        phone: input.phone || null,
        category: input.category,
        message: input.message,
      });
      return id;
    },

    async list(
      handled: boolean | undefined,
      page: Page,
    ): Promise<ContactMessage[]> {
      const rows = await newestFirst(
        db
          .select()
          .from(contacts)
          .where(
            handled === undefined ? undefined : eq(contacts.handled, handled),
          )
          .$dynamic(),
        contacts.createdAt,
        contacts.id,
        page,
      );
      return rows.map(toContact);
    },

    async setHandled(
      id: string,
      handled: boolean,
    ): Promise<ContactMessage | null> {
      const [row] = await db
        .update(contacts)
        .set({ handled })
        .where(eq(contacts.id, id))
        .returning();
      return row ? toContact(row) : null;
    },
  };
}

const toContact = (r: typeof contacts.$inferSelect): ContactMessage => ({
  id: r.id,
  name: r.name,
  email: r.email,
  ...(r.phone ? { phone: r.phone } : {}),
  category: r.category,
  message: r.message,
  handled: r.handled,
  createdAt: r.createdAt.toISOString(),
});
