import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import {
  AuditEntrySchema,
  AuditListInputSchema,
  ContactCreateInputSchema,
  ContactCreateResultSchema,
  ContactListInputSchema,
  ContactMessageSchema,
  ContactUpdateInputSchema,
} from '@proam/contract';
import { ApiError } from '../lib/api-error.js';
import { defineRoute } from '../lib/route.js';
import { contactMail } from '../mail/templates.js';

export function contactRoutes(app: FastifyInstance): void {
  const { repos, config, clock } = app;
  const repo = repos.contacts;

  defineRoute(app, {
    path: '/contact/create',
    auth: 'none',
    summary: 'Store a contact message and mail it to the company',
    tags: ['contact'],
    input: ContactCreateInputSchema,
    output: ContactCreateResultSchema,
    // A public form that sends mail: keep spam bounded per address.
    rateLimit: { max: 5, timeWindow: '10 minutes' },
    handler: async ({ input }) => {
      // The message and its mail to the desk commit together; the outbox sends it.
      await repos.transaction(async (tx) => {
        const id = await tx.contacts.create(input);
        await tx.outbox.enqueue([
          { ...contactMail(config.contactTo, id, input), category: 'contact' },
        ]);
      });
      return { received: true as const };
    },
  });

  defineRoute(app, {
    path: '/contact/list',
    auth: 'admin',
    summary:
      '(beyond the seed) Contact messages, newest first, optionally by handled flag (admins)',
    tags: ['contact'],
    input: ContactListInputSchema,
    output: Type.Array(ContactMessageSchema),
    handler: ({ input }) =>
      repo.list(input.handled, input.page ?? 1, input.size ?? 50),
  });

  defineRoute(app, {
    path: '/contact/update',
    auth: 'admin',
    summary: '(beyond the seed) Mark a contact message handled or not (admins)',
    tags: ['contact'],
    input: ContactUpdateInputSchema,
    output: ContactMessageSchema,
    handler: ({ input, caller }) =>
      repos.transaction(async (tx) => {
        const row = await tx.contacts.setHandled(input.id, input.handled);
        if (!row) throw new ApiError('NotFound');
        await tx.audit.record({
          actorId: caller.id,
          action: 'contact.update',
          targetId: input.id,
          detail: { handled: input.handled },
          at: clock.now(),
        });
        return row;
      }),
  });

  defineRoute(app, {
    path: '/audit/list',
    auth: 'admin',
    summary:
      '(beyond the seed) The audit log of admin changes, newest first (admins)',
    tags: ['audit'],
    input: AuditListInputSchema,
    output: Type.Array(AuditEntrySchema),
    handler: ({ input }) => repos.audit.list(input.page ?? 1, input.size ?? 50),
  });
}
