import { SMTPServer } from 'smtp-server';

export type ReceivedMail = { to: string[]; raw: string; text: string };

export type MailPeer = {
  /** `smtp://127.0.0.1:<port>`, for the server's SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  /** The first mail (arrived or arriving) that matches, or a timeout error. */
  waitFor: (
    match: (mail: ReceivedMail) => boolean,
    timeoutMs?: number,
  ) => Promise<ReceivedMail>;
  stop: () => Promise<void>;
};

/** Mail bodies may be quoted-printable or base64; look at every decoding. */
export function decodeMail(raw: string): string {
  const qp = raw.replace(/=\r?\n/g, '').replace(/(=[0-9A-F]{2})+/g, (m) => {
    try {
      return Buffer.from(m.replace(/=/g, ''), 'hex').toString('utf8');
    } catch {
      return m;
    }
  });
  const b64 = raw
    .split(/\r?\n\r?\n/)
    .map((part) => {
      const compact = part.replace(/\s+/g, '');
      return /^[A-Za-z0-9+/=]{16,}$/.test(compact)
        ? Buffer.from(compact, 'base64').toString('utf8')
        : '';
    })
    .join('\n');
  return `${raw}\n${qp}\n${b64}`;
}

/**
 * A real SMTP server on loopback that keeps every mail in memory, so browser
 * tests can read the codes the API sends. No TLS or AUTH: it never leaves the
 * machine.
 */
export const startMailPeer = async (): Promise<MailPeer> => {
  const received: ReceivedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw,
          text: decodeMail(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    smtp.server.once('error', reject);
    smtp.listen(0, '127.0.0.1', () => resolve());
  });
  const address = smtp.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  const waitFor: MailPeer['waitFor'] = async (match, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const found = received.find(match);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(
      `no matching mail within ${timeoutMs} ms (received ${received.length}: ${received
        .map((m) => m.to.join(','))
        .join(' | ')})`,
    );
  };

  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    waitFor,
    stop: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
};
