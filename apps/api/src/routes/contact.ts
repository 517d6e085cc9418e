import type { FastifyInstance } from 'fastify';
import { ContactCreateInputSchema, ContactCreateResultSchema } from '@proam/contract';
import { defineRoute } from '../lib/route.js';
import { contactRepository } from '../repositories/contact-repository.js';
import type { Deps } from './deps.js';

export function contactRoutes(app: FastifyInstance, { database, mailer, config }: Deps): void {
  const repo = contactRepository(database.db);

  defineRoute(app, {
    path: '/contact/create',
    auth: 'none',
    summary: 'Store a contact message and mail it to the company',
    tags: ['contact'],
    input: ContactCreateInputSchema,
    output: ContactCreateResultSchema,
    // A public form that sends mail: keep spam bounded per address.
    rateLimit: { max: 5, timeWindow: '10 minutes' },
    handler: async ({ input, req }) => {
      const id = await repo.create(input);
      try {
        await mailer.send({
          to: config.contactTo,
          replyTo: input.email,
          subject: `【お問い合わせ】${input.category}（${input.name} 様）`,
          text: [
            'Webサイトのお問い合わせフォームから新しいお問い合わせが届きました。',
            '',
            `受付番号: ${id}`,
            `お名前: ${input.name}`,
            `メールアドレス: ${input.email}`,
            `電話番号: ${input.phone || '（未入力）'}`,
            `お問い合わせ種別: ${input.category}`,
            '',
            'お問い合わせ内容:',
            input.message,
          ].join('\n'),
        });
      } catch (err) {
        // The message is stored; staff can still read it even if mail is down.
        req.log.error({ err, contactId: id }, 'contact mail failed');
      }
      return { received: true as const };
    },
  });
}
