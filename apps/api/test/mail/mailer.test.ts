import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import Fastify from 'fastify';
import { SMTPServer } from 'smtp-server';
import { createMailer } from '../../src/mail/mailer.js';
import { freePort } from '../../../../test-support/server-process.js';

describe('the SMTP mailer', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'proam-mailer-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps a pool of at most 5 connections: 40 mails do not open 40 sessions', async () => {
    let connections = 0;
    let received = 0;
    const sink = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onConnect(_session, cb) {
        connections++;
        cb();
      },
      onData(stream, _session, cb) {
        stream.resume();
        stream.on('end', () => {
          received++;
          cb();
        });
      },
    });
    const port = await freePort();
    await new Promise<void>((resolve) =>
      sink.listen(port, '127.0.0.1', () => resolve()),
    );
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'ProAm Connect <no-reply@example.jp>',
      dataDir,
      log: Fastify().log,
    });
    try {
      await mailer.verify?.();
      const started = Date.now();
      await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          mailer.send({
            to: `member${i}@example.jp`,
            subject: `【ProAm Connect】テスト ${i}`,
            text: '本文',
          }),
        ),
      );
      assert.equal(received, 40);
      // verify() opens one connection of its own, the pool at most 5.
      assert.ok(connections <= 6, `${connections} connections for 40 mails`);
      assert.ok(Date.now() - started < 5_000);
    } finally {
      mailer.close();
      await new Promise<void>((resolve) => sink.close(() => resolve()));
    }
  });
});
