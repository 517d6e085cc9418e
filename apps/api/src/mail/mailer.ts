import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer, {
  type Transporter,
  type TransportOptions,
} from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import { newId } from '../lib/ids.js';

export type Mail = {
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
};

export type Mailer = {
  send(mail: Mail): Promise<void>;
  /**
   * Sends in the background, so an answer takes the same time whether or not
   * a mail goes out (docs/security.md RC-05). Failures are logged.
   */
  enqueue(mail: Mail): void;
  /** Resolves when every enqueued mail has been handed over. */
  idle(): Promise<void>;
  close(): void;
};

function withQueue(
  base: Pick<Mailer, 'send' | 'close'>,
  log: FastifyBaseLogger,
): Mailer {
  const pending = new Set<Promise<void>>();
  return {
    ...base,
    enqueue(mail) {
      const p = base
        .send(mail)
        .catch((err: unknown) =>
          log.error({ err, subject: mail.subject }, 'mail failed'),
        )
        .finally(() => pending.delete(p));
      pending.add(p);
    },
    async idle() {
      while (pending.size) await Promise.all([...pending]);
    },
  };
}

/**
 * With SMTP_URL: a pooled SMTP transport (unpooled sends wait ~100 ms each for
 * the greeting). Without: each mail is rendered to an .eml file in
 * DATA_DIR/outbox/ and a log line names it; the log line carries no body, so a
 * code or a message text never lands in the log.
 */
export function createMailer(opts: {
  smtpUrl: string | null;
  from: string;
  dataDir: string;
  log: FastifyBaseLogger;
}): Mailer {
  if (opts.smtpUrl) {
    const transport: Transporter = nodemailer.createTransport(opts.smtpUrl, {
      pool: true,
      maxConnections: 3,
    } as TransportOptions);
    return withQueue(
      {
        async send(mail) {
          await transport.sendMail({ from: opts.from, ...mail });
          opts.log.info({ to: mail.to, subject: mail.subject }, 'mail sent');
        },
        close: () => transport.close(),
      },
      opts.log,
    );
  }
  const outbox = path.join(opts.dataDir, 'outbox');
  mkdirSync(outbox, { recursive: true });
  const render = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });
  return withQueue(
    {
      async send(mail) {
        const info = await render.sendMail({ from: opts.from, ...mail });
        const file = path.join(outbox, `${newId()}.eml`);
        writeFileSync(file, info.message as Buffer, { mode: 0o600 });
        opts.log.info(
          { to: mail.to, subject: mail.subject, file: path.basename(file) },
          'mail written to outbox (SMTP_URL not set)',
        );
      },
      close: () => undefined,
    },
    opts.log,
  );
}
