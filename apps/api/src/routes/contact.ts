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
import { audited } from '../lib/audited.js';
import { pageOf } from '../lib/paging.js';
import { defineRoute } from '../lib/route.js';
import { contactMail } from '../mail/templates.js';

export function contactRoutes(app: FastifyInstance): void {
  const { repos, config } = app;
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
    handler: ({ input }) => repo.list(input.handled, pageOf(input, 50)),
  });

  defineRoute(app, {
    path: '/contact/update',
    auth: 'admin',
    summary: '(beyond the seed) Mark a contact message handled or not (admins)',
    tags: ['contact'],
    input: ContactUpdateInputSchema,
    output: ContactMessageSchema,
    handler: ({ input, caller }) =>
      audited(
        app,
        caller,
        (tx) => tx.contacts.setHandled(input.id, input.handled),
        () => ({
          action: 'contact.update',
          targetId: input.id,
          detail: { handled: input.handled },
        }),
      ),
  });

  defineRoute(app, {
    path: '/audit/list',
    auth: 'admin',
    summary:
      '(beyond the seed) The audit log of admin changes, newest first (admins)',
    tags: ['audit'],
    input: AuditListInputSchema,
    output: Type.Array(AuditEntrySchema),
    handler: ({ input }) => repos.audit.list(pageOf(input, 50)),
  });
}
