/**
 * A loopback SMTP sink for the mail checks (the API's mail-durability test,
 * pressure/mail-outbox.ts, bench/booking.ts): a real `smtp-server` that keeps
 * every mail it accepts, decoded (recipient, subject, text), with the moment
 * it arrived. It can be
 * started late on a port chosen in advance (the server's SMTP_URL names it
 * while nothing listens there: the mail server is down) and stopped again.
 */
import { SMTPServer } from 'smtp-server';

export type SunkMail = {
  to: string;
  subject: string;
  /** The decoded text body, line ends as LF, trailing blanks trimmed. */
  text: string;
  /** Date.now() when the sink had the whole message (just before its 250). */
  at: number;
};

const WORD = /=\?utf-8\?([bq])\?([^?]*)\?=/gi;
const RUN = /=\?utf-8\?[bq]\?[^?]*\?=(?:\s+=\?utf-8\?[bq]\?[^?]*\?=)*/gi;

const qBytes = (text: string, underscoreIsSpace: boolean): Buffer =>
  Buffer.from(
    (underscoreIsSpace ? text.replace(/_/g, ' ') : text).replace(
      /=([0-9A-F]{2})/gi,
      (_m, h: string) => String.fromCharCode(parseInt(h, 16)),
    ),
    'latin1',
  );

/**
 * A header with RFC 2047 encoded words (what nodemailer makes of a Japanese
 * subject), decoded. The words of a run are joined as bytes: a character may
 * straddle two of them.
 */
export function decodeHeader(value: string): string {
  return value
    .replace(/\r?\n[ \t]+/g, ' ')
    .replace(RUN, (run) =>
      Buffer.concat(
        [...run.matchAll(WORD)].map(([, enc, text = '']) =>
          enc!.toLowerCase() === 'b'
            ? Buffer.from(text, 'base64')
            : qBytes(text, true),
        ),
      ).toString('utf8'),
    )
    .trim();
}

/** A single-part text mail as nodemailer writes it: its subject and text, decoded. */
export function parseMail(raw: string): { subject: string; text: string } {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split >= 0 ? raw.slice(0, split) : raw;
  const body = split >= 0 ? raw.slice(split).replace(/^\r?\n\r?\n/, '') : '';
  const header = (name: string) =>
    new RegExp(`^${name}:[ \\t]*(.*(?:\\r?\\n[ \\t].*)*)`, 'im').exec(
      head,
    )?.[1] ?? '';
  const encoding = header('Content-Transfer-Encoding').trim().toLowerCase();
  const bytes =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64')
      : encoding === 'quoted-printable'
        ? qBytes(body.replace(/=\r?\n/g, ''), false)
        : Buffer.from(body, 'utf8');
  return {
    subject: decodeHeader(header('Subject')),
    text: bytes.toString('utf8').replace(/\r\n/g, '\n').trimEnd(),
  };
}

export type MailSink = {
  port: number;
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  /** Every mail accepted, one entry per recipient (empty with `decode: false`). */
  received: SunkMail[];
  /** Recipients accepted so far (every mail, decoded or not). */
  count(): number;
  /** Starts listening on `port` (again). */
  start(): Promise<void>;
  /** Stops listening; open sessions get a 421 and are closed. */
  stop(): Promise<void>;
};

/**
 * `decode: false` only counts (the bench sink: decoding 10,000 mails would
 * load the measuring process).
 */
export function mailSink(
  port: number,
  opts: { decode?: boolean } = {},
): MailSink {
  const decode = opts.decode ?? true;
  const received: SunkMail[] = [];
  let counted = 0;
  let smtp: SMTPServer | undefined;
  const make = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      // A stand-in on the loopback: no DNS look-up of the client per session.
      disableReverseLookup: true,
      // The worker's pool keeps its sessions open: stop() ends them after this.
      closeTimeout: 200,
      onData(stream, session, cb) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          counted += session.envelope.rcptTo.length;
          if (decode) {
            const at = Date.now();
            const mail = parseMail(Buffer.concat(chunks).toString('utf8'));
            for (const r of session.envelope.rcptTo)
              received.push({ to: r.address.toLowerCase(), ...mail, at });
          }
          cb();
        });
      },
    });
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    count: () => counted,
    start() {
      const server = make();
      smtp = server;
      // A client that vanishes mid-session (a killed worker) resets its connection: not the sink's failure.
      server.on('error', () => undefined);
      return new Promise<void>((resolve, reject) => {
        server.server.once('error', reject);
        server.listen(port, '127.0.0.1', () => resolve());
      });
    },
    stop() {
      const server = smtp;
      smtp = undefined;
      if (!server) return Promise.resolve();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
