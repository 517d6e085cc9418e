import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SMTPServer } from 'smtp-server';
import { eq } from 'drizzle-orm';
import { contacts, mailOutbox } from '../../src/db/schema.js';
import {
  call,
  decodeMail,
  DRIVERS,
  eventually,
  harness,
  type Harness,
} from '../helper.js';

const valid = {
  name: '山田 太郎',
  email: 'taro@example.jp',
  phone: '03-1234-5678',
  category: 'プロ会員について',
  message:
    'プロ会員の登録方法について教えてください。\n平日のみの活動でも可能でしょうか。',
};

for (const driver of DRIVERS) {
  describe(`contact/create (${driver})`, () => {
    let h: Harness;
    before(async () => {
      h = await harness(driver, { CONTACT_TO: 'staff@example.jp' });
    });
    after(() => h.close());

    it('stores the message and writes the mail to the outbox when SMTP_URL is unset', async () => {
      const r = await call(h.app, '/contact/create', {
        ...valid,
        name: '  山田 太郎  ',
      });
      assert.equal(r.status, 200);
      assert.deepEqual(r.json.body, { received: true });
      const rows = await h.database.db
        .select()
        .from(contacts)
        .where(eq(contacts.email, valid.email));
      assert.equal(rows.length, 1);
      assert.equal(rows[0]!.name, '山田 太郎', 'trimmed');
      assert.equal(rows[0]!.message, valid.message);
      assert.equal(rows[0]!.handled, false);
      // The worker sends it from the outbox table, just after the answer.
      await h.mailTo('staff@example.jp');
      const mails = h.outbox();
      assert.equal(mails.length, 1);
      const eml = mails[0]!.text;
      assert.match(eml, /^To: staff@example\.jp$/m);
      assert.match(eml, /^Reply-To: taro@example\.jp$/m);
      // The body is quoted-printable or base64 UTF-8; decode the part to find the text.
      assert.ok(decodeMail(eml).includes('平日のみの活動でも可能でしょうか。'));
      // Logged once the file is written, which the worker awaits off the
      // event loop: the file can be seen a moment before the line.
      assert.ok(
        await eventually(async () =>
          h.logs.some((l) => l.includes('mail written to outbox')),
        ),
      );
      assert.ok(
        !h.logs.join('').includes('平日のみ'),
        'message text stays out of the log',
      );
    });

    it('names the faulty field in the Japanese message and stores nothing', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ ...valid, email: 'not-an-address' }, 'email'],
        [{ ...valid, name: '   ' }, 'name'],
        [{ ...valid, name: '山田\r\nBcc: victim@example.jp' }, 'name'],
        [{ ...valid, message: 'あ'.repeat(2001) }, 'message'],
        [{ ...valid, phone: '03-1234-abcd' }, 'phone'],
        [{ ...valid, category: '' }, 'category'],
        [
          { name: valid.name, email: valid.email, category: valid.category },
          'message',
        ],
        [{ ...valid, email: `${'a'.repeat(250)}@example.jp` }, 'email'],
      ];
      const before = (await h.database.db.select().from(contacts)).length;
      for (const [i, [body, field]] of cases.entries()) {
        // Each case from its own address, so the per-IP limit doesn't interfere.
        const r = await call(h.app, '/contact/create', body, {
          remoteAddress: `127.0.1.${i + 1}`,
        });
        assert.equal(r.status, 400, JSON.stringify(body).slice(0, 80));
        assert.equal(r.json.code, 'ValidationError');
        assert.equal(r.json.msg, `入力内容に誤りがあります。（${field}）`);
      }
      assert.equal(
        (await h.database.db.select().from(contacts)).length,
        before,
      );
    });
  });
}

describe('contact/create rate limit and SMTP', () => {
  it('allows 5 messages per 10 minutes per IP, then 429 with Retry-After', async () => {
    const h = await harness('pglite');
    try {
      for (let i = 0; i < 5; i++) {
        const r = await call(h.app, '/contact/create', {
          ...valid,
          message: `テスト${i}`,
        });
        assert.equal(r.status, 200, `request ${i}`);
      }
      const r = await call(h.app, '/contact/create', valid);
      assert.equal(r.status, 429);
      assert.equal(r.json.code, 'TooManyRequests');
      assert.equal(
        r.json.msg,
        '操作が多すぎます。しばらく時間をおいてから再度お試しください。',
      );
      assert.ok(Number(r.res.headers['retry-after']) > 0);
      // Another IP is not affected.
      const other = await h.app.inject({
        method: 'POST',
        url: '/api/contact/create',
        remoteAddress: '127.0.0.9',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(valid),
      });
      assert.equal(other.statusCode, 200);
    } finally {
      await h.close();
    }
  });

  it('mails CONTACT_TO through SMTP_URL when it is set', async () => {
    const received: { to: string[]; data: string }[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, cb) {
        let data = '';
        stream.on('data', (c: Buffer) => (data += c.toString('utf8')));
        stream.on('end', () => {
          received.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            data,
          });
          cb();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as { port: number }).port;
    const h = await harness('pglite', {
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      CONTACT_TO: 'info@example.jp',
    });
    try {
      const r = await call(h.app, '/contact/create', valid);
      assert.equal(r.status, 200);
      for (let i = 0; i < 100 && received.length === 0; i++)
        await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(received.length, 1);
      assert.deepEqual(received[0]!.to, ['info@example.jp']);
      assert.ok(decodeMail(received[0]!.data).includes('プロ会員の登録方法'));
      assert.equal(h.outbox().length, 0);
    } finally {
      await h.close();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });

  it('still stores the message, and keeps its mail queued for a retry, when the mail server is down', async () => {
    const h = await harness('pglite', { SMTP_URL: 'smtp://127.0.0.1:1' });
    try {
      const r = await call(h.app, '/contact/create', {
        ...valid,
        email: 'down@example.jp',
      });
      assert.equal(r.status, 200);
      const rows = await h.database.db
        .select()
        .from(contacts)
        .where(eq(contacts.email, 'down@example.jp'));
      assert.equal(rows.length, 1);
      let queued: (typeof mailOutbox.$inferSelect)[] = [];
      for (let i = 0; i < 100 && !queued[0]?.lastError; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        queued = await h.database.db.select().from(mailOutbox);
      }
      assert.equal(queued.length, 1);
      assert.equal(queued[0]!.status, 'queued');
      assert.equal(queued[0]!.attempts, 1);
      assert.match(queued[0]!.lastError ?? '', /ECONNREFUSED/);
      assert.ok(queued[0]!.nextAttemptAt > queued[0]!.createdAt, 'backs off');
      assert.ok(h.logs.some((l) => l.includes('mail not sent; will retry')));
    } finally {
      await h.close();
    }
  });
});
