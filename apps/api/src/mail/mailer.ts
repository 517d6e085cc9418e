import { mkdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import { newId } from '../lib/ids.js';

export type Mail = {
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
};

/** A transport: hands one mail over, or throws. The outbox worker calls it. */
export type Mailer = {
  send(mail: Mail): Promise<void>;
  /** Whether the mail server answers now (SMTP only): the worker's probe during an outage. */
  verify?(): Promise<void>;
  close(): void;
};

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
    // The URL goes inside the options: createTransport(url, x) reads x as
    // message defaults, which left the pool off (a new connection, greeting
    // and all, for every mail: 45 mails/s instead of thousands).
    const transport: Transporter = nodemailer.createTransport({
      url: opts.smtpUrl,
      pool: true,
      maxConnections: 5,
      // One connection carries many mails: the outbox drains in bursts.
      maxMessages: 1000,
    });
    return {
      async send(mail) {
        await transport.sendMail({ from: opts.from, ...mail });
        opts.log.info({ to: mail.to, subject: mail.subject }, 'mail sent');
      },
      async verify() {
        await transport.verify();
      },
      close: () => transport.close(),
    };
  }
  const outbox = path.join(opts.dataDir, 'outbox');
  mkdirSync(outbox, { recursive: true });
  const render = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });
  return {
    async send(mail) {
      const info = await render.sendMail({ from: opts.from, ...mail });
      const file = path.join(outbox, `${newId()}.eml`);
      // Off the event loop: creating a file in a folder of thousands took
      // about a millisecond, during which no request was served.
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      opts.log.info(
        { to: mail.to, subject: mail.subject, file: path.basename(file) },
        'mail written to outbox (SMTP_URL not set)',
      );
    },
    close: () => undefined,
  };
}
