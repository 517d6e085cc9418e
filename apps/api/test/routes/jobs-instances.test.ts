import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { like } from 'drizzle-orm';
import { chatDigests, mailOutbox } from '../../src/db/schema.js';
import { addDays, japanDate } from '../../src/lib/time.js';
import { memberSuite, secondInstance, TestClock } from '../helper.js';

/**
 * The scheduled mail jobs on two API instances of one PostgreSQL database,
 * run at the same moment many times: each reminder and each chat digest is
 * queued once (a unique key and a conditional claim, not timing).
 */
describe(
  'scheduled mail jobs on two instances (postgres)',
  {
    skip: !process.env.TEST_DATABASE_URL && 'TEST_DATABASE_URL is not set',
  },
  () => {
    const clock = new TestClock();
    const suite = memberSuite('postgres', {}, { clock });

    it('queues each reminder and each chat digest once, however the runs overlap', async () => {
      const second = await secondInstance(suite.h, {}, { clock });
      try {
        const date = addDays(japanDate(), 12);
        const lesson = (
          await suite.post('pro2', '/schedule/create', {
            date,
            startTime: '08:00',
            endTime: '12:00',
            place: '二台構成カントリー倶楽部',
            capacity: 4,
            fee: 15000,
          })
        ).json.body as { id: string };
        for (const who of ['ama1', 'ama2', 'ama3'])
          assert.equal(
            (await suite.post(who, '/schedule/reserve', { id: lesson.id }))
              .status,
            200,
          );
        // A message at 17:00 the evening before, written straight through the
        // repository (the members' tokens do not live 11 days); at 18:00 both
        // jobs have work.
        clock.set(new Date(`${addDays(date, -1)}T17:00:00+09:00`));
        await suite.h.app.repos.chat.append({
          partitionKey: lesson.id,
          sender: suite.ids.pro2!,
          msg: '当日の集合場所はクラブハウス前です',
          createTime: clock.now().toISOString(),
        });
        clock.set(new Date(`${addDays(date, -1)}T18:00:00+09:00`));
        const runs = Array.from({ length: 6 }, (_, i) =>
          (i % 2 ? second.app : suite.h.app).jobs.runOnce(),
        );
        await Promise.all(runs);
        await Promise.all([
          suite.h.app.jobs.runOnce(),
          second.app.jobs.runOnce(),
        ]);

        const reminders = await suite.h.database.db
          .select()
          .from(mailOutbox)
          .where(like(mailOutbox.dedupeKey, `reminder:${lesson.id}:%`));
        assert.equal(
          reminders.length,
          4,
          'three amateurs and the pro, once each',
        );
        assert.equal(new Set(reminders.map((r) => r.toAddress)).size, 4);
        const claims = await suite.h.database.db.select().from(chatDigests);
        const digests = (
          await suite.h.database.db.select().from(mailOutbox)
        ).filter(
          (m) => m.subject.includes('チャット') && m.body.includes('二台構成'),
        );
        assert.deepEqual(digests.map((d) => d.toAddress).sort(), [
          'ama1@example.jp',
          'ama2@example.jp',
          'ama3@example.jp',
        ]);
        assert.ok(claims.length >= 3);
      } finally {
        clock.set(new Date());
        await second.close();
      }
    });
  },
);
