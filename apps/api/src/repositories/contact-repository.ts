import type { ContactCreateInput } from '@proam/contract';
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
  };
}
