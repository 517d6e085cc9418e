import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { and, eq, inArray } from 'drizzle-orm';
import { reservations } from '../../src/db/schema.js';
import { addDays, japanDate } from '../../src/lib/time.js';
import { whyNoPlace } from '../../src/repositories/schedule-repository.js';
import { call, DRIVERS, memberSuite } from '../helper.js';
import {
  extraAmateurs,
  heldReservations,
  mailsTo,
  rowsWhere,
  scheduleRow,
} from '../fixtures.js';

type S = {
  id: string;
  proId: string;
  date: string;
  startTime: string;
  endTime: string;
  capacity: number;
  reservedCount: number;
  statusRound: string;
  participants?: string[];
  place: string;
};

for (const driver of DRIVERS) {
  describe(`schedules and reservations (${driver})`, () => {
    const suite = memberSuite(driver);
    const { ids, post, expect } = suite;
    const today = japanDate();
    const lesson = (over: Record<string, unknown> = {}) => ({
      date: addDays(today, 40),
      startTime: '09:00',
      endTime: '12:00',
      place: 'テストゴルフ倶楽部',
      area: '東京都',
      capacity: 4,
      fee: 20000,
      note: '集合はクラブハウス前',
      ...over,
    });
    /** `pro` asks to create a lesson: the defaults, but for `over`. */
    const create = (pro: string, over: Record<string, unknown> = {}) =>
      post(pro, '/schedule/create', lesson(over));
    /** The lesson `pro` created, as answered. */
    const created = async (pro: string, over: Record<string, unknown> = {}) =>
      (await create(pro, over)).json.body as S;

    it('lets a pro create a lesson for themselves, and refuses amateurs and other pros', async () => {
      const r = await create('pro1');
      assert.equal(r.status, 200, JSON.stringify(r.json));
      const s = r.json.body as S;
      assert.equal(s.proId, ids.pro1);
      assert.equal(s.statusRound, 'open');
      assert.equal(s.reservedCount, 0);
      assert.deepEqual(s.participants, []);
      assert.equal(
        (await create('ama1', { startTime: '13:00', endTime: '15:00' })).json
          .code,
        'Forbidden',
      );
      assert.equal(
        (
          await create('pro2', {
            proId: ids.pro1,
            startTime: '13:00',
            endTime: '15:00',
          })
        ).json.code,
        'Forbidden',
      );
      const admin = await create('admin', {
        proId: ids.pro2,
        startTime: '13:00',
        endTime: '15:00',
      });
      assert.equal((admin.json.body as S).proId, ids.pro2);
      assert.equal(
        (await create('admin', { proId: ids.ama1 })).json.code,
        'ValidationError',
      );
    });

    it('refuses past dates, end before start, overlaps and bad capacity', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [lesson({ date: addDays(today, -1) }), 'ValidationError'],
        [
          lesson({
            date: addDays(today, 41),
            startTime: '12:00',
            endTime: '11:00',
          }),
          'ValidationError',
        ],
        [
          lesson({
            date: addDays(today, 41),
            startTime: '12:00',
            endTime: '12:00',
          }),
          'ValidationError',
        ],
        [lesson({ startTime: '11:00', endTime: '13:00' }), 'Conflict'],
        [lesson({ date: addDays(today, 41), capacity: 5 }), 'ValidationError'],
        [lesson({ date: addDays(today, 41), capacity: 0 }), 'ValidationError'],
        [lesson({ date: addDays(today, 41), place: '  ' }), 'ValidationError'],
        [
          lesson({ date: addDays(today, 41), startTime: '25:00' }),
          'ValidationError',
        ],
        [lesson({ date: addDays(today, 41), extra: 1 }), 'ValidationError'],
      ];
      for (const [body, code] of cases)
        assert.equal(
          (await post('pro1', '/schedule/create', body)).json.code,
          code,
          JSON.stringify(body),
        );
      // Back to back is not an overlap.
      assert.equal(
        (await create('pro1', { startTime: '12:00', endTime: '14:00' })).status,
        200,
      );
    });

    it('reserves idempotently up to capacity, turns full, reopens on cancel', async () => {
      const s = await created('pro3', { capacity: 2 });
      const a = await post('ama1', '/schedule/reserve', { id: s.id });
      assert.equal(a.status, 200, JSON.stringify(a.json));
      assert.equal((a.json.body as S).reservedCount, 1);
      assert.deepEqual((a.json.body as S).participants, [ids.ama1]);
      assert.equal(
        ((await post('ama1', '/schedule/reserve', { id: s.id })).json.body as S)
          .reservedCount,
        1,
        'idempotent',
      );
      const b = (await post('ama2', '/schedule/reserve', { id: s.id })).json
        .body as S;
      assert.equal(b.reservedCount, 2);
      assert.equal(b.statusRound, 'full');
      const c = await post('ama3', '/schedule/reserve', { id: s.id });
      assert.equal(c.status, 409);
      assert.equal(c.json.code, 'ScheduleFull');
      assert.equal(c.json.msg, 'このラウンドレッスンは満員です。');
      await expect('pro2', '/schedule/reserve', { id: s.id }, 'Forbidden');
      await expect('ama3', '/schedule/cancel', { id: s.id }, 'Forbidden');
      const d = (await post('ama2', '/schedule/cancel', { id: s.id })).json
        .body as S;
      assert.equal(d.reservedCount, 1);
      assert.equal(d.statusRound, 'open');
      assert.equal(
        (await post('ama3', '/schedule/reserve', { id: s.id })).status,
        200,
      );
      // Participants are hidden from outsiders.
      const outsider = (
        await post('ama4', '/schedule/getActive', { userId: ids.pro3 })
      ).json.body as S[];
      const seen = outsider.find((x) => x.id === s.id)!;
      assert.equal(seen.participants, undefined);
      const mine = (
        await post('ama3', '/schedule/getById', { userId: ids.ama3 })
      ).json.body as S[];
      assert.deepEqual(
        mine.find((x) => x.id === s.id)!.participants!.sort(),
        [ids.ama1, ids.ama3].sort(),
      );
    });

    /** `n` races, each on a new lesson of pro4's, from `fromDay` days on, one a day. */
    const rounds = async (
      n: number,
      { fromDay, capacity }: { fromDay: number; capacity: number },
      race: (s: S, round: number) => Promise<void>,
    ) => {
      for (let round = 0; round < n; round++)
        await race(
          await created('pro4', {
            date: addDays(today, fromDay + round),
            capacity,
          }),
          round,
        );
    };

    it('never reserves beyond capacity under 50 concurrent calls (x20)', async () => {
      const people = await extraAmateurs(suite.h, 50, `race-${driver}`);
      await rounds(20, { fromDay: 50, capacity: 4 }, async (s, round) => {
        const results = await Promise.all(
          people.map((p) =>
            call(suite.h.app, '/schedule/reserve', { id: s.id }, p.auth),
          ),
        );
        const ok = results.filter((r) => r.status === 200).length;
        const full = results.filter(
          (r) => r.json.code === 'ScheduleFull',
        ).length;
        assert.equal(ok, 4, `round ${round}`);
        assert.equal(
          full,
          46,
          `round ${round}: ${JSON.stringify([...new Set(results.map((r) => r.json.code))])}`,
        );
        const row = await scheduleRow(suite.h, s.id);
        assert.equal(row.reservedCount, 4);
        assert.equal(row.statusRound, 'full');
        assert.equal(
          (
            await rowsWhere(
              suite.h,
              reservations,
              reservations.scheduleId,
              s.id,
            )
          ).length,
          4,
        );
      });
    });

    it('answers ScheduleFull, never Conflict, when reservations race with cancellations (x20)', async () => {
      const people = await extraAmateurs(suite.h, 12, `swap-${driver}`);
      await rounds(20, { fromDay: 80, capacity: 2 }, async (s, round) => {
        const as = (i: number, path: string) =>
          call(suite.h.app, path, { id: s.id }, people[i]!.auth);
        for (const i of [0, 1])
          assert.equal((await as(i, '/schedule/reserve')).status, 200);
        // Both places go free while ten others try to take them.
        const results = await Promise.all([
          as(0, '/schedule/cancel'),
          as(1, '/schedule/cancel'),
          ...people.slice(2).map((_, k) => as(k + 2, '/schedule/reserve')),
        ]);
        const reserves = results.slice(2);
        const codes = new Set(
          reserves.filter((r) => r.status !== 200).map((r) => r.json.code),
        );
        assert.deepEqual(
          [...codes].filter((c) => c !== 'ScheduleFull'),
          [],
          `round ${round}`,
        );
        const ok = reserves.filter((r) => r.status === 200).length;
        const row = await scheduleRow(suite.h, s.id);
        // Not cancelled: pending or confirmed.
        const held = await heldReservations(suite.h, s.id);
        assert.equal(results[0]!.status, 200);
        assert.equal(results[1]!.status, 200);
        assert.ok(ok <= 2, `round ${round}: ${ok} reserved`);
        assert.equal(held.length, ok);
        assert.equal(row.reservedCount, ok);
      });
    });

    it('lets only the owner or an admin edit, never below the reservations; others change nothing', async () => {
      const s = await created('pro5', { capacity: 3 });
      await post('ama5', '/schedule/reserve', { id: s.id });
      await post('ama6', '/schedule/reserve', { id: s.id });
      const before = await scheduleRow(suite.h, s.id);
      for (const who of ['pro1', 'ama5'])
        await expect(
          who,
          '/schedule/update',
          { id: s.id, fee: 1 },
          'Forbidden',
        );
      assert.deepEqual(await scheduleRow(suite.h, s.id), before);
      const low = await post('pro5', '/schedule/update', {
        id: s.id,
        capacity: 1,
      });
      assert.equal(low.json.code, 'ValidationError');
      // Handing the lesson to another pro: refused, naming the field, nothing changes.
      const handOver = await post('pro5', '/schedule/update', {
        ...s,
        place: '変更後のコース',
        proId: ids.pro1,
      });
      assert.equal(handOver.status, 400);
      assert.equal(handOver.json.code, 'ValidationError');
      // The lesson as read before two bookings, edited: the stale counts are ignored.
      const r = await post('pro5', '/schedule/update', {
        ...s,
        id: s.id,
        place: '変更後のコース',
        participants: [],
        reservedCount: 0,
        capacity: 2,
      });
      assert.equal(r.status, 200, JSON.stringify(r.json));
      const u = r.json.body as S;
      assert.equal(u.place, '変更後のコース');
      assert.equal(u.proId, ids.pro5);
      assert.equal(u.reservedCount, 2);
      // No place left: full, so the next amateur can wait for one.
      assert.equal(u.statusRound, 'full');
      await expect('ama4', '/schedule/waitlistJoin', { id: s.id }, 200);
      const reopened = await expect(
        'pro5',
        '/schedule/update',
        { id: s.id, statusRound: 'open' },
        200,
      );
      assert.equal((reopened.json.body as S).statusRound, 'full');
      // A place more: the first in line takes it, and the lesson is full again.
      const raised = (
        await expect('pro5', '/schedule/update', { id: s.id, capacity: 3 }, 200)
      ).json.body as S;
      assert.equal(raised.statusRound, 'full');
      assert.equal(raised.reservedCount, 3);
      // As the web form edits (capacity only), with nobody waiting: the
      // answer is the lesson as stored.
      const one = await created('pro5', {
        date: addDays(today, 47),
        capacity: 1,
      });
      await expect('ama5', '/schedule/reserve', { id: one.id }, 200);
      const more = await expect(
        'pro5',
        '/schedule/update',
        { id: one.id, capacity: 2 },
        200,
      );
      assert.equal((more.json.body as S).statusRound, 'open');
      assert.equal((await scheduleRow(suite.h, one.id)).statusRound, 'open');
      const fewer = await expect(
        'pro5',
        '/schedule/update',
        { id: one.id, capacity: 1 },
        200,
      );
      assert.equal((fewer.json.body as S).statusRound, 'full');
      // What the amateurs booked stays: its day, times and fee (call it off
      // and create another); the course may change, and they are told.
      for (const change of [
        { fee: 25000 },
        { date: addDays(today, 48) },
        { startTime: '08:00' },
        { endTime: '15:00' },
      ])
        await expect(
          'admin',
          '/schedule/update',
          { id: s.id, ...change },
          'Conflict',
        );
      const told = await mailsTo(suite.h, 'ama5@example.jp', /内容が変更/);
      assert.equal(told.length, 1);
      assert.match(told[0]!.body, /ゴルフ場：.+ → 変更後のコース/);
      assert.equal(
        (await mailsTo(suite.h, 'pro5@example.jp', /内容/)).length,
        0,
      );
      // Unbooked, everything may change.
      const free = await created('pro5', { date: addDays(today, 49) });
      await expect(
        'pro5',
        '/schedule/update',
        {
          id: free.id,
          date: addDays(today, 50),
          fee: 9000,
          startTime: '08:00',
        },
        200,
      );
      await expect('pro5', '/schedule/delete', { id: s.id }, 'Conflict');
      await expect('pro1', '/schedule/delete', { id: s.id }, 'Forbidden');
      const empty = await created('pro5', { date: addDays(today, 45) });
      assert.deepEqual(
        (await post('pro5', '/schedule/delete', { id: empty.id })).json.body,
        { deletedCount: 1 },
      );
      await expect('pro5', '/schedule/delete', { id: empty.id }, 'NotFound');
    });

    it('sets the round status of a date, for the pro themself or an admin', async () => {
      const date = addDays(today, 60);
      const one = await created('pro2', {
        date,
        startTime: '07:00',
        endTime: '09:00',
        capacity: 1,
      });
      await create('pro2', { date, startTime: '10:00', endTime: '12:00' });
      await expect('ama1', '/schedule/reserve', { id: one.id }, 200);
      const round = (who: string, statusRound: string, want: number | string) =>
        expect(
          who,
          '/schedule/updateRound',
          { proId: ids.pro2, date, statusRound },
          want,
        );
      await round('pro1', 'closed', 'Forbidden');
      const r = await round('pro2', 'closed', 200);
      assert.deepEqual(r.json.body, { updatedCount: 2 });
      const day = (
        await post('pro2', '/schedule/getByDate', { userId: ids.pro2, date })
      ).json.body as S[];
      assert.deepEqual(
        day.map((x) => x.statusRound),
        ['closed', 'closed'],
      );
      await round('pro2', 'weird', 'ValidationError');
      const closed = day[1]!;
      await expect('ama2', '/schedule/reserve', { id: closed.id }, 'Conflict');
      // Opened again: the lesson with no place left is full, not open.
      const opened = await round('pro2', 'open', 200);
      assert.deepEqual(opened.json.body, { updatedCount: 2 });
      const reopened = (
        await post('pro2', '/schedule/getByDate', { userId: ids.pro2, date })
      ).json.body as S[];
      assert.deepEqual(
        reopened.map((x) => x.statusRound),
        ['full', 'open'],
      );
      // 満員 is set as sent (API.md: updateRound sets the status), and 募集中
      // again opens only where a place is free.
      const full = await round('pro2', 'full', 200);
      assert.deepEqual(full.json.body, { updatedCount: 2 });
      const statuses = async () =>
        (
          (
            await post('pro2', '/schedule/getByDate', {
              userId: ids.pro2,
              date,
            })
          ).json.body as S[]
        ).map((x) => x.statusRound);
      assert.deepEqual(await statuses(), ['full', 'full']);
      await round('pro2', 'open', 200);
      assert.deepEqual(await statuses(), ['full', 'open']);
    });

    it("lists a member's lessons: active from today, by date, and never another amateur's bookings", async () => {
      const active = (
        await post('pro1', '/schedule/getActive', { userId: ids.pro1 })
      ).json.body as S[];
      assert.ok(active.length > 0);
      assert.ok(
        active.every(
          (s) =>
            s.date >= today && !['done', 'cancelled'].includes(s.statusRound),
        ),
      );
      const dates = active.map((s) => s.date);
      assert.deepEqual(dates, [...dates].sort());
      const all = (
        await post('pro1', '/schedule/getById', { userId: ids.pro1 })
      ).json.body as S[];
      assert.ok(
        all.some((s) => s.date < today),
        'past lessons too',
      );
      const spy = (
        await post('ama2', '/schedule/getById', { userId: ids.ama1 })
      ).json.body as S[];
      assert.deepEqual(spy, []);
      const own = (
        await post('ama1', '/schedule/getById', { userId: ids.ama1 })
      ).json.body as S[];
      assert.ok(
        own.length > 0 && own.every((s) => s.participants!.includes(ids.ama1!)),
      );
      const bookings = await suite.h.database.db
        .select()
        .from(reservations)
        .where(
          and(
            eq(reservations.userId, ids.ama1!),
            inArray(
              reservations.scheduleId,
              own.map((s) => s.id),
            ),
          ),
        );
      assert.equal(bookings.length, own.length);
    });
  });
}

describe('why a reservation found no place', () => {
  type Seen = Parameters<typeof whyNoPlace>[0];
  const lesson = (o: Partial<Seen>): Seen => ({
    statusRound: 'open',
    date: '2030-01-10',
    ...o,
  });
  const today = '2030-01-01';
  it('answers ScheduleFull for a lesson open for entries, open or marked full', () => {
    assert.equal(whyNoPlace(lesson({}), today), 'ScheduleFull');
    assert.equal(
      whyNoPlace(lesson({ statusRound: 'full' }), today),
      'ScheduleFull',
    );
    assert.equal(whyNoPlace(lesson({ date: today }), today), 'ScheduleFull');
  });
  it('answers Conflict for a lesson not open for entries', () => {
    for (const statusRound of ['closed', 'done', 'cancelled'] as const)
      assert.equal(whyNoPlace(lesson({ statusRound }), today), 'Conflict');
    assert.equal(whyNoPlace(lesson({ date: '2029-12-31' }), today), 'Conflict');
  });
});
