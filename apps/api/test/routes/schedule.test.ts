import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { and, eq, inArray, ne } from 'drizzle-orm';
import { reservations, schedules, users } from '../../src/db/schema.js';
import { signAccessToken } from '../../src/plugins/auth.js';
import { addDays, japanDate } from '../../src/lib/time.js';
import { newId } from '../../src/lib/ids.js';
import { afterMissedPlace } from '../../src/repositories/schedule-repository.js';
import { call, DRIVERS, memberSuite } from '../helper.js';

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
    const { ids, post } = suite;
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

    it('lets a pro create a lesson for themselves, and refuses amateurs and other pros', async () => {
      const r = await post('pro1', '/schedule/create', lesson());
      assert.equal(r.status, 200, JSON.stringify(r.json));
      const s = r.json.body as S;
      assert.equal(s.proId, ids.pro1);
      assert.equal(s.statusRound, 'open');
      assert.equal(s.reservedCount, 0);
      assert.deepEqual(s.participants, []);
      assert.equal(
        (
          await post(
            'ama1',
            '/schedule/create',
            lesson({ startTime: '13:00', endTime: '15:00' }),
          )
        ).json.code,
        'Forbidden',
      );
      assert.equal(
        (
          await post(
            'pro2',
            '/schedule/create',
            lesson({ proId: ids.pro1, startTime: '13:00', endTime: '15:00' }),
          )
        ).json.code,
        'Forbidden',
      );
      const admin = await post(
        'admin',
        '/schedule/create',
        lesson({ proId: ids.pro2, startTime: '13:00', endTime: '15:00' }),
      );
      assert.equal((admin.json.body as S).proId, ids.pro2);
      assert.equal(
        (await post('admin', '/schedule/create', lesson({ proId: ids.ama1 })))
          .json.code,
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
        (
          await post(
            'pro1',
            '/schedule/create',
            lesson({ startTime: '12:00', endTime: '14:00' }),
          )
        ).status,
        200,
      );
    });

    it('reserves idempotently up to capacity, turns full, reopens on cancel', async () => {
      const s = (
        await post('pro3', '/schedule/create', lesson({ capacity: 2 }))
      ).json.body as S;
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
      assert.equal(
        (await post('pro2', '/schedule/reserve', { id: s.id })).json.code,
        'Forbidden',
      );
      assert.equal(
        (await post('ama3', '/schedule/cancel', { id: s.id })).json.code,
        'Forbidden',
      );
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

    /** `n` more amateurs, straight into the table; their access tokens. */
    const extraAmateurs = async (n: number, tag: string) => {
      const extra = Array.from({ length: n }, (_, i) => ({ id: newId(), i }));
      await suite.h.database.db.insert(users).values(
        extra.map((u) => ({
          id: u.id,
          type: 'amature' as const,
          email: `${tag}${u.i}-${driver}@example.jp`,
          passwordHash: 'x',
          userName: `${tag} ${u.i}`,
        })),
      );
      return extra.map((u) =>
        signAccessToken(suite.h.app, { id: u.id, type: 'amature' }),
      );
    };

    it('never reserves beyond capacity under 50 concurrent calls (x20)', async () => {
      const tokens = await extraAmateurs(50, 'race');
      for (let round = 0; round < 20; round++) {
        const s = (
          await post(
            'pro4',
            '/schedule/create',
            lesson({ date: addDays(today, 50 + round), capacity: 4 }),
          )
        ).json.body as S;
        const results = await Promise.all(
          tokens.map((t) =>
            call(
              suite.h.app,
              '/schedule/reserve',
              { id: s.id },
              { headers: { authorization: `Bearer ${t}` } },
            ),
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
        const [row] = await suite.h.database.db
          .select()
          .from(schedules)
          .where(eq(schedules.id, s.id));
        assert.equal(row!.reservedCount, 4);
        assert.equal(row!.statusRound, 'full');
        assert.equal(
          (
            await suite.h.database.db
              .select()
              .from(reservations)
              .where(eq(reservations.scheduleId, s.id))
          ).length,
          4,
        );
      }
    });

    it('answers ScheduleFull, never Conflict, when reservations race with cancellations (x20)', async () => {
      const tokens = await extraAmateurs(12, 'swap');
      const auth = (i: number) => ({
        headers: { authorization: `Bearer ${tokens[i]!}` },
      });
      for (let round = 0; round < 20; round++) {
        const s = (
          await post(
            'pro4',
            '/schedule/create',
            lesson({ date: addDays(today, 80 + round), capacity: 2 }),
          )
        ).json.body as S;
        for (const i of [0, 1])
          assert.equal(
            (
              await call(
                suite.h.app,
                '/schedule/reserve',
                { id: s.id },
                auth(i),
              )
            ).status,
            200,
          );
        // Both places go free while ten others try to take them.
        const results = await Promise.all([
          call(suite.h.app, '/schedule/cancel', { id: s.id }, auth(0)),
          call(suite.h.app, '/schedule/cancel', { id: s.id }, auth(1)),
          ...tokens
            .slice(2)
            .map((_, k) =>
              call(suite.h.app, '/schedule/reserve', { id: s.id }, auth(k + 2)),
            ),
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
        const [row] = await suite.h.database.db
          .select()
          .from(schedules)
          .where(eq(schedules.id, s.id));
        const held = await suite.h.database.db
          .select()
          .from(reservations)
          .where(
            and(
              eq(reservations.scheduleId, s.id),
              ne(reservations.status, 'cancelled'),
            ),
          );
        assert.equal(results[0]!.status, 200);
        assert.equal(results[1]!.status, 200);
        assert.ok(ok <= 2, `round ${round}: ${ok} reserved`);
        assert.equal(held.length, ok);
        assert.equal(row!.reservedCount, ok);
      }
    });

    it('lets only the owner or an admin edit, never below the reservations; others change nothing', async () => {
      const s = (
        await post('pro5', '/schedule/create', lesson({ capacity: 3 }))
      ).json.body as S;
      await post('ama5', '/schedule/reserve', { id: s.id });
      await post('ama6', '/schedule/reserve', { id: s.id });
      const before = await suite.h.database.db
        .select()
        .from(schedules)
        .where(eq(schedules.id, s.id));
      assert.equal(
        (await post('pro1', '/schedule/update', { id: s.id, fee: 1 })).json
          .code,
        'Forbidden',
      );
      assert.equal(
        (await post('ama5', '/schedule/update', { id: s.id, fee: 1 })).json
          .code,
        'Forbidden',
      );
      assert.deepEqual(
        await suite.h.database.db
          .select()
          .from(schedules)
          .where(eq(schedules.id, s.id)),
        before,
      );
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
      assert.equal(
        (await post('admin', '/schedule/update', { id: s.id, fee: 25000 }))
          .status,
        200,
      );
      assert.equal(
        (await post('pro5', '/schedule/delete', { id: s.id })).json.code,
        'Conflict',
      );
      assert.equal(
        (await post('pro1', '/schedule/delete', { id: s.id })).json.code,
        'Forbidden',
      );
      const empty = (
        await post(
          'pro5',
          '/schedule/create',
          lesson({ date: addDays(today, 45) }),
        )
      ).json.body as S;
      assert.deepEqual(
        (await post('pro5', '/schedule/delete', { id: empty.id })).json.body,
        { deletedCount: 1 },
      );
      assert.equal(
        (await post('pro5', '/schedule/delete', { id: empty.id })).json.code,
        'NotFound',
      );
    });

    it('sets the round status of a date, for the pro themself or an admin', async () => {
      const date = addDays(today, 60);
      await post(
        'pro2',
        '/schedule/create',
        lesson({ date, startTime: '07:00', endTime: '09:00' }),
      );
      await post(
        'pro2',
        '/schedule/create',
        lesson({ date, startTime: '10:00', endTime: '12:00' }),
      );
      assert.equal(
        (
          await post('pro1', '/schedule/updateRound', {
            proId: ids.pro2,
            date,
            statusRound: 'closed',
          })
        ).json.code,
        'Forbidden',
      );
      const r = await post('pro2', '/schedule/updateRound', {
        proId: ids.pro2,
        date,
        statusRound: 'closed',
      });
      assert.deepEqual(r.json.body, { updatedCount: 2 });
      const day = (
        await post('pro2', '/schedule/getByDate', { userId: ids.pro2, date })
      ).json.body as S[];
      assert.deepEqual(
        day.map((x) => x.statusRound),
        ['closed', 'closed'],
      );
      assert.equal(
        (
          await post('pro2', '/schedule/updateRound', {
            proId: ids.pro2,
            date,
            statusRound: 'weird',
          })
        ).json.code,
        'ValidationError',
      );
      const closed = day[0]!;
      assert.equal(
        (await post('ama1', '/schedule/reserve', { id: closed.id })).json.code,
        'Conflict',
      );
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

describe('what a reservation does after missing a place', () => {
  type Seen = NonNullable<Parameters<typeof afterMissedPlace>[0]>;
  const lesson = (o: Partial<Seen>): Seen => ({
    statusRound: 'open',
    reservedCount: 2,
    capacity: 2,
    date: '2030-01-10',
    ...o,
  });
  const today = '2030-01-01';
  it('tries again when a cancellation has made room, a few times at most', () => {
    const roomy = lesson({ reservedCount: 1 });
    assert.equal(afterMissedPlace(roomy, today, 1), 'retry');
    assert.equal(afterMissedPlace(roomy, today, 2), 'retry');
    assert.equal(afterMissedPlace(roomy, today, 3), 'ScheduleFull');
  });
  it('answers ScheduleFull for a full lesson, open or marked full', () => {
    assert.equal(afterMissedPlace(lesson({}), today, 1), 'ScheduleFull');
    assert.equal(
      afterMissedPlace(lesson({ statusRound: 'full' }), today, 1),
      'ScheduleFull',
    );
  });
  it('answers Conflict for a lesson not open for entries', () => {
    for (const statusRound of ['closed', 'done', 'cancelled'] as const)
      assert.equal(
        afterMissedPlace(lesson({ statusRound, reservedCount: 0 }), today, 1),
        'Conflict',
      );
    assert.equal(
      afterMissedPlace(
        lesson({ reservedCount: 0, date: '2029-12-31' }),
        today,
        1,
      ),
      'Conflict',
    );
    assert.equal(afterMissedPlace(undefined, today, 1), 'Conflict');
  });
});
