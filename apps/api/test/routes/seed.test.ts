import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { verifyPassword } from '../../src/lib/password.js';
import { seedDemo, DEMO_ADMIN, DEMO_PASSWORD } from '../../src/db/seed.js';
import {
  likes,
  news,
  reservations,
  reviews,
  schedules,
  users,
  waitlist,
} from '../../src/db/schema.js';
import { DRIVERS, harness, type Harness } from '../helper.js';
import { japanDate } from '../../src/lib/time.js';

for (const driver of DRIVERS) {
  describe(`demo seed (${driver})`, () => {
    let h: Harness;
    before(async () => {
      h = await harness(driver);
    });
    after(() => h.close());

    it('creates the demo logins with argon2id hashes', async () => {
      const rows = await h.database.db.select().from(users);
      const byMail = new Map(rows.map((u) => [u.email, u]));
      for (const mail of [
        'admin@example.jp',
        'pro1@example.jp',
        'pro2@example.jp',
        'ama1@example.jp',
        'ama2@example.jp',
      ])
        assert.ok(byMail.has(mail), mail);
      assert.equal(byMail.get('admin@example.jp')!.type, 'admin');
      assert.equal(byMail.get('pro1@example.jp')!.type, 'pro');
      assert.equal(byMail.get('ama1@example.jp')!.type, 'amature');
      const admin = byMail.get(DEMO_ADMIN.email)!;
      assert.match(admin.passwordHash, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      assert.ok(await verifyPassword(admin.passwordHash, DEMO_ADMIN.password));
      assert.ok(
        await verifyPassword(
          byMail.get('pro1@example.jp')!.passwordHash,
          DEMO_PASSWORD,
        ),
      );
      assert.ok(!(await verifyPassword(admin.passwordHash, DEMO_PASSWORD)));
    });

    it('gives the wave-2 demo: a full future lesson of pro1 without ama2, with a waitlist, and a past lesson ama1 took', async () => {
      const today = japanDate();
      const byMail = new Map(
        (await h.database.db.select().from(users)).map((u) => [u.email, u.id]),
      );
      const pro1 = byMail.get('pro1@example.jp')!;
      const ama1 = byMail.get('ama1@example.jp')!;
      const ama2 = byMail.get('ama2@example.jp')!;
      const mine = await h.database.db
        .select()
        .from(schedules)
        .where(eq(schedules.proId, pro1));
      const held = await h.database.db.select().from(reservations);
      const heldBy = (id: string, who: string) =>
        held.some((r) => r.scheduleId === id && r.userId === who);
      const full = mine.find(
        (l) =>
          l.date > today && l.statusRound === 'full' && !heldBy(l.id, ama2),
      );
      assert.ok(
        full,
        'a full future lesson of pro1 that ama2 has not reserved',
      );
      const line = await h.database.db
        .select()
        .from(waitlist)
        .where(eq(waitlist.scheduleId, full.id));
      assert.equal(line.length, 1);
      assert.ok(!heldBy(full.id, line[0]!.userId));
      assert.ok(
        mine.some((l) => l.date < today && heldBy(l.id, ama1)),
        'a past lesson of pro1 that ama1 took',
      );
      assert.ok(held.every((r) => r.status === 'confirmed' && r.amount > 0));
    });

    it("gives pro1 reviews, leaves ama1's last lesson unreviewed, and has pro6 waiting for verification", async () => {
      const all = await h.database.db.select().from(users);
      const byMail = new Map(all.map((u) => [u.email, u]));
      const pro1 = byMail.get('pro1@example.jp')!;
      const written = await h.database.db
        .select()
        .from(reviews)
        .where(eq(reviews.proId, pro1.id));
      assert.ok(written.length >= 3);
      assert.equal(pro1.reviewCount, written.length);
      assert.equal(
        pro1.ratingSum,
        written.reduce((t, r) => t + r.rating, 0),
      );
      assert.ok(written.some((r) => r.reply));
      const ama1 = byMail.get('ama1@example.jp')!.id;
      const took = await h.database.db
        .select({ id: schedules.id, date: schedules.date })
        .from(reservations)
        .innerJoin(schedules, eq(schedules.id, reservations.scheduleId))
        .where(eq(reservations.userId, ama1));
      assert.ok(
        took.some(
          (l) =>
            l.date < japanDate() && !written.some((r) => r.scheduleId === l.id),
        ),
      );
      assert.equal(byMail.get('pro6@example.jp')!.verified, false);
      assert.ok(
        all
          .filter((u) => u.type === 'pro' && u.email !== 'pro6@example.jp')
          .every((u) => u.verified),
      );
    });

    it('gives a month of lessons with consistent counters', async () => {
      const today = japanDate();
      const lessons = await h.database.db.select().from(schedules);
      const upcoming = lessons.filter((l) => l.date >= today);
      assert.ok(upcoming.length >= 20);
      assert.ok(lessons.some((l) => l.statusRound === 'full'));
      for (const l of lessons) assert.ok(l.reservedCount <= l.capacity);
      // The reservation rows themselves, not only the counter (the filled lesson once got 4 of 3).
      const booked = await h.database.db.execute(
        sql`select s.capacity, s.reserved_count, (select count(*) from reservations r where r.schedule_id = s.id) as n from schedules s`,
      );
      // Both drivers answer { rows }; count(*) is a string on pg and a number on PGlite.
      for (const row of (
        booked as unknown as {
          rows: { capacity: number; reserved_count: number; n: unknown }[];
        }
      ).rows) {
        assert.ok(Number(row.n) <= row.capacity);
        assert.equal(row.reserved_count, Number(row.n));
      }
      const counts = await h.database.db.execute(
        sql`select u.id, u.like_count, (select count(*) from likes l where l.like_user_id = u.id) as n from users u`,
      );
      for (const row of (
        counts as unknown as { rows: { like_count: number; n: unknown }[] }
      ).rows)
        assert.equal(row.like_count, Number(row.n));
      assert.ok((await h.database.db.select().from(likes)).length > 0);
    });

    it("gives every demo pro's lessons the fee on the pro's profile", async () => {
      const pros = (await h.database.db.select().from(users)).filter(
        (u) => u.type === 'pro',
      );
      const lessons = await h.database.db.select().from(schedules);
      for (const pro of pros) {
        const fees = new Set(
          lessons.filter((l) => l.proId === pro.id).map((l) => l.fee),
        );
        if (pro.email === 'pro6@example.jp') assert.equal(fees.size, 0);
        else assert.deepEqual([...fees], [pro.lessonFee], pro.email);
      }
    });

    it('has news that promise only what the app does: entries by the contact form, no discount', async () => {
      const bodies = (await h.database.db.select().from(news))
        .map((n) => `${n.title}\n${n.body}`)
        .join('\n');
      assert.doesNotMatch(bodies, /「大会」タブからお申し込み/);
      assert.doesNotMatch(bodies, /%|％|割引(?!はありません)/);
      assert.match(bodies, /お問い合わせ種別「大会・イベントについて」/);
    });

    it('never seeds a database that has data', async () => {
      const n = (await h.database.db.select().from(users)).length;
      assert.equal(await seedDemo(h.database), false);
      assert.equal((await h.database.db.select().from(users)).length, n);
      assert.equal(
        (
          await h.database.db
            .select()
            .from(users)
            .where(eq(users.type, 'admin'))
        ).length,
        1,
      );
    });
  });
}
