import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { users } from '../../src/db/schema.js';
import { ApiError } from '../../src/lib/api-error.js';
import { newId } from '../../src/lib/ids.js';
import { hashPassword, verifyPassword } from '../../src/lib/password.js';
import {
  call,
  DRIVERS,
  harness,
  secondInstance,
  TestClock,
  type Harness,
  type TestApp,
  WEB_CLIENT,
} from '../helper.js';

const client = { authorization: WEB_CLIENT };
const RIGHT = 'proam-demo-2026';
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;

/** A clock that stands still unless moved, so waits come out exact. */
class StillClock extends TestClock {
  private at = Date.now();
  override now = () => new Date(this.at);
  override advance(ms: number) {
    this.at += ms;
  }
}

/**
 * 40 wrong passwords and the right one (the 21st) for one address, all in
 * flight at once, spread over the apps, each from an address of its own.
 */
async function burst(apps: TestApp[], mail: string, net: number) {
  const sent = Array.from({ length: 41 }, (_, i) =>
    call(
      apps[i % apps.length]!,
      '/auth/login',
      { mail, password: i === 20 ? RIGHT : `wrong-guess-${i}` },
      { headers: client, remoteAddress: `10.${net}.${i}.1` },
    ),
  );
  return (await Promise.all(sent)).map((r) => r.status);
}
const tally = (statuses: number[]) => ({
  /** 401 and 200 answers: the password was checked. */
  verified: statuses.filter((s) => s === 401 || s === 200).length,
  throttled: statuses.filter((s) => s === 429).length,
  rightGotIn: statuses[20] === 200,
});

for (const driver of DRIVERS) {
  describe(`login and code limits (${driver})`, () => {
    let h: Harness;
    const clock = new StillClock();
    let ip = 0;
    const nextIp = () => `10.200.${Math.floor(++ip / 250)}.${(ip % 250) + 1}`;
    const login = (mail: string, password: string, from = nextIp()) =>
      call(
        h.app,
        '/auth/login',
        { mail, password },
        { headers: client, remoteAddress: from },
      );
    const post = (path: string, body: unknown, from = nextIp()) =>
      call(h.app, path, body, { headers: client, remoteAddress: from });
    const retryAfter = (r: Awaited<ReturnType<typeof call>>) =>
      Number(r.res.headers['retry-after']);
    /** `n` failed sign-ins on `mail` from anywhere, each as soon as the delay allows. */
    const hammer = async (mail: string, n: number) => {
      for (let done = 0; done < n;) {
        const r = await login(mail, `attack-${done}-pw`);
        if (r.status === 429) clock.advance(retryAfter(r) * SECOND);
        else done++;
      }
    };

    before(async () => {
      h = await harness(driver, {}, { clock });
    });
    after(() => h.close());

    describe('the login race', () => {
      it('a parallel burst of 40 wrong passwords is checked 5 times, and the right one in the middle is refused', async () => {
        const t = tally(await burst([h.app], 'ama3@example.jp', 1));
        console.log(`# race ${driver}, one instance: ${JSON.stringify(t)}`);
        assert.deepEqual(t, { verified: 5, throttled: 36, rightGotIn: false });
      });

      if (driver === 'postgres')
        it('holds across two API instances on one database', async () => {
          const second = await secondInstance(h, {}, { clock });
          try {
            const t = tally(
              await burst([h.app, second.app], 'ama4@example.jp', 2),
            );
            console.log(
              `# race ${driver}, two instances: ${JSON.stringify(t)}`,
            );
            assert.deepEqual(t, {
              verified: 5,
              throttled: 36,
              rightGotIn: false,
            });
          } finally {
            await second.close();
          }
        });

      it('a parallel burst from one IP over 40 addresses is checked 30 times', async () => {
        const from = '10.3.0.1';
        const answers = await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            login(`spray-${i}@example.jp`, 'wrong-guess-x', from),
          ),
        );
        const statuses = answers.map((r) => r.status);
        assert.equal(statuses.filter((s) => s === 401).length, 30);
        assert.equal(statuses.filter((s) => s === 429).length, 10);
        clock.advance(5 * MINUTE);
      });
    });

    describe('backoff per address (AU-07)', () => {
      it('delays after 5 failures, doubling from 1 s to 15 minutes, never for good; a success clears it', async () => {
        const mail = 'pro2@example.jp';
        for (let i = 0; i < 5; i++)
          assert.equal((await login(mail, `wrong-${i}-pw`)).status, 401);
        const expected = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900];
        for (const seconds of expected) {
          const r = await login(mail, RIGHT);
          assert.equal(r.status, 429);
          assert.equal(r.json.code, 'TooManyRequests');
          assert.equal(retryAfter(r), seconds);
          clock.advance(seconds * SECOND - 1);
          assert.equal((await login(mail, RIGHT)).status, 429, 'not yet');
          clock.advance(1);
          assert.equal((await login(mail, `wrong-${seconds}-pw`)).status, 401);
        }
        // 17 failures in a row: still 15 minutes, and then the right password works.
        const r = await login(mail, RIGHT);
        assert.equal(retryAfter(r), 900);
        clock.advance(900 * SECOND);
        assert.equal((await login(mail, RIGHT)).status, 200);
        for (let i = 0; i < 5; i++)
          assert.equal((await login(mail, `again-${i}-pw`)).status, 401);
        assert.equal(retryAfter(await login(mail, RIGHT)), 1);
        clock.advance(DAY);
      });

      it('treats an unknown address the same', async () => {
        const mail = 'ghost-backoff@example.jp';
        for (let i = 0; i < 5; i++)
          assert.equal((await login(mail, `wrong-${i}-pw`)).status, 401);
        const r = await login(mail, 'wrong-x-pw');
        assert.equal(r.status, 429);
        assert.equal(retryAfter(r), 1);
      });

      it('allows at most 100 failures in 24 hours', async () => {
        const mail = 'ghost-hundred@example.jp';
        let failures = 0;
        let waited = 0;
        for (;;) {
          const r = await login(mail, 'wrong-pw-hundred');
          if (r.status === 401) {
            failures++;
            continue;
          }
          const wait = retryAfter(r);
          if (waited + wait * SECOND >= DAY) break;
          waited += wait * SECOND;
          clock.advance(wait * SECOND);
        }
        assert.equal(failures, 100);
        clock.advance(DAY);
        assert.equal((await login(mail, 'wrong-pw-hundred')).status, 401);
      });
    });

    describe("the owner's allowance", () => {
      it('an IP that signed in within 30 days keeps its own budget; others are delayed', async () => {
        const mail = 'ama5@example.jp';
        const home = '10.4.0.1';
        assert.equal((await login(mail, RIGHT, home)).status, 200);
        // Someone else hammers the address from everywhere.
        await hammer(mail, 12);
        const elsewhere = await login(mail, RIGHT, '10.4.0.2');
        assert.equal(elsewhere.status, 429);
        assert.equal(retryAfter(elsewhere), 128);
        // At home the owner signs in at once…
        assert.equal((await login(mail, RIGHT, home)).status, 200);
        // …and has a small budget there: 5 typos, then the same backoff.
        for (let i = 0; i < 5; i++)
          assert.equal((await login(mail, `typo-${i}-pw`, home)).status, 401);
        const typo = await login(mail, RIGHT, home);
        assert.equal(typo.status, 429);
        assert.equal(retryAfter(typo), 1);
        clock.advance(SECOND);
        assert.equal((await login(mail, RIGHT, home)).status, 200);

        // 30 days without a sign-in there, and home is a stranger again.
        clock.advance(31 * DAY);
        await hammer(mail, 5);
        assert.equal((await login(mail, RIGHT, home)).status, 429);
        clock.advance(DAY);
      });

      it('a password reset clears the delays of the address', async () => {
        const mail = 'ama6@example.jp';
        await hammer(mail, 12);
        assert.equal((await login(mail, RIGHT)).status, 429);
        await post('/auth/code/reset', { email: mail });
        const code = /認証コード: (\d{8})/.exec(
          await h.mailTo(mail, /パスワード再設定/),
        )![1]!;
        const r = await post('/auth/update', {
          email: mail,
          password: 'New-Green-Jacket-9',
          code,
        });
        assert.equal(r.status, 200, JSON.stringify(r.json));
        assert.equal((await login(mail, 'New-Green-Jacket-9')).status, 200);
      });
    });

    describe('per IP', () => {
      it('30 failures in 5 minutes stop strangers from that IP, not members who signed in from it before', async () => {
        const office = '10.5.0.1';
        assert.equal(
          (await login('pro3@example.jp', RIGHT, office)).status,
          200,
        );
        for (let i = 0; i < 30; i++)
          assert.equal(
            (await login(`spray-${i}@example.jp`, 'password-spray', office))
              .status,
            401,
          );
        const stranger = await login('pro4@example.jp', RIGHT, office);
        assert.equal(stranger.status, 429);
        assert.ok(retryAfter(stranger) > 0 && retryAfter(stranger) <= 300);
        // A member who signed in from the office before is not held up…
        assert.equal(
          (await login('pro3@example.jp', RIGHT, office)).status,
          200,
        );
        assert.equal(
          (await login('pro3@example.jp', 'typo-in-office', office)).status,
          401,
        );
        // …and the stranger gets in from elsewhere, or from the office 5 minutes later.
        assert.equal((await login('pro4@example.jp', RIGHT)).status, 200);
        clock.advance(5 * MINUTE);
        assert.equal(
          (await login('pro5@example.jp', RIGHT, office)).status,
          200,
        );
      });

      it('successful sign-ins of strangers do not count', async () => {
        const cafe = '10.6.0.1';
        for (let i = 0; i < 29; i++)
          await login(`cafe-${i}@example.jp`, 'password-spray', cafe);
        for (const m of ['pro1', 'ama1', 'ama2'])
          assert.equal(
            (await login(`${m}@example.jp`, RIGHT, cafe)).status,
            200,
          );
        assert.equal(
          (await login('cafe-x@example.jp', 'password-spray', cafe)).status,
          401,
          'the 30th failure',
        );
        assert.equal(
          (await login('cafe-y@example.jp', 'password-spray', cafe)).status,
          429,
        );
        clock.advance(5 * MINUTE);
      });
    });

    describe('mailed codes', () => {
      const codeFrom = (mail: string) => /認証コード: (\d+)/.exec(mail)![1]!;
      const reset = (email: string, code: string, from?: string) =>
        post(
          '/auth/update',
          { email, password: 'Another-Green-Jacket-7', code },
          from,
        );

      it('a new request does not cancel the code already mailed', async () => {
        const email = 'pro5@example.jp';
        await post('/auth/code/reset', { email });
        const first = codeFrom(await h.mailTo(email, /パスワード再設定/));
        await post('/auth/code/reset', { email });
        const second = codeFrom(
          await h.mailTo(email, new RegExp(`認証コード: (?!${first})\\d{8}`)),
        );
        assert.notEqual(first, second);
        assert.equal((await reset(email, first)).status, 200);
        // Using one ends the others.
        assert.equal((await reset(email, second)).json.code, 'InvalidCode');
      });

      it('5 wrong codes in 10 minutes, whatever code they aim at; then 429 until the window passes', async () => {
        const email = 'ama1@example.jp';
        // Someone guesses before the member even asks.
        for (let i = 0; i < 5; i++)
          assert.equal(
            (await reset(email, String(10_000_000 + i))).json.code,
            'InvalidCode',
          );
        clock.advance(MINUTE);
        await post('/auth/code/reset', { email });
        const code = codeFrom(await h.mailTo(email, /パスワード再設定/));
        const early = await reset(email, code);
        assert.equal(early.status, 429);
        assert.equal(retryAfter(early), 9 * 60);
        clock.advance(9 * MINUTE);
        // The guesses cost the member a wait, not the code.
        assert.equal((await reset(email, code)).status, 200);
      });

      it('parallel wrong codes are counted before they are compared', async () => {
        const email = 'ama2@example.jp';
        await post('/auth/code/reset', { email });
        const code = codeFrom(await h.mailTo(email, /パスワード再設定/));
        const answers = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            reset(email, String(20_000_000 + i)),
          ),
        );
        const codes = answers.map((r) => r.json.code);
        assert.equal(codes.filter((c) => c === 'InvalidCode').length, 5);
        assert.equal(codes.filter((c) => c === 'TooManyRequests').length, 15);
        assert.equal((await reset(email, code)).json.code, 'TooManyRequests');
        clock.advance(10 * MINUTE);
      });
    });

    describe('registration', () => {
      const reg = (email: string, code: string, from?: string) =>
        post(
          '/user/create',
          {
            email,
            code,
            password: 'Fairway-Birdie-77',
            userName: '登録 テスト',
            type: 'amature',
          },
          from,
        );
      const withoutReqId = (j: Record<string, unknown>) => ({
        ...j,
        reqId: undefined,
      });

      it('says nothing about registered addresses without a valid code', async () => {
        const taken = await reg('pro1@example.jp', '123456');
        const free = await reg(`free-${driver}@example.jp`, '123456');
        assert.equal(taken.status, 400);
        assert.equal(taken.json.code, 'InvalidCode');
        assert.deepEqual(withoutReqId(taken.json), withoutReqId(free.json));
      });

      it('answers 409 EmailTaken only to the holder of a valid code (registered meanwhile)', async () => {
        const email = `meanwhile-${driver}@example.jp`;
        await post('/auth/code', { email });
        const code = /認証コード: (\d{6})/.exec(await h.mailTo(email))![1]!;
        await h.database.db.insert(users).values({
          id: newId(),
          type: 'amature',
          email,
          passwordHash: 'x',
          userName: '先客',
        });
        const r = await reg(email, code);
        assert.equal(r.status, 409);
        assert.equal(r.json.code, 'EmailTaken');
      });

      it('is limited to 10 an hour per IP', async () => {
        const from = '10.7.0.1';
        for (let i = 0; i < 10; i++)
          assert.equal(
            (await reg(`limit-${i}@example.jp`, '123456', from)).json.code,
            'InvalidCode',
          );
        const r = await reg('limit-x@example.jp', '123456', from);
        assert.equal(r.status, 429);
        assert.equal(r.json.code, 'TooManyRequests');
        assert.ok(retryAfter(r) > 3000);
        assert.equal(
          (await reg('limit-x@example.jp', '123456')).json.code,
          'InvalidCode',
        );
      });
    });
  });
}

describe('password hashing queue', () => {
  const statusOf = (p: Promise<unknown>) =>
    p.then(
      () => 'ok',
      (e: unknown) => (e instanceof ApiError ? e.code : String(e)),
    );

  it('serves sources in turn: a flood from one IP does not hold up another', async () => {
    const stored = await hashPassword('queue-test-password');
    const done: string[] = [];
    const run = (source: string) =>
      statusOf(
        verifyPassword(stored, 'queue-test-password', source).then(() => {
          done.push(source);
        }),
      );
    const flood = Array.from({ length: 30 }, () => run('10.8.0.1'));
    const owner = run('10.8.0.2');
    const results = await Promise.all(flood);
    assert.equal(await owner, 'ok');
    assert.ok(results.every((s) => s === 'ok'));
    // Behind the one running and, at most, the flood's next job.
    assert.ok(
      done.indexOf('10.8.0.2') <= 2,
      `the owner came ${done.indexOf('10.8.0.2')}th`,
    );
  });

  it('when all 64 places are taken, a newcomer takes the place of the longest queue’s newest job', async () => {
    const stored = await hashPassword('queue-test-password');
    const run = (source: string) =>
      statusOf(verifyPassword(stored, 'queue-test-password', source));
    // One running and 64 waiting, from one source or a few.
    const flood = Array.from({ length: 49 }, () => run('10.9.0.1'));
    const crowd = Array.from({ length: 16 }, (_, i) =>
      run(`10.9.0.${2 + (i % 4)}`),
    );
    const more = run('10.9.0.1');
    const newcomers = [run('10.9.1.1'), run('10.9.1.2')];
    const sameAgain = run('10.9.1.1');
    assert.equal(
      await more,
      'ServiceUnavailable',
      'the longest queue grows no more',
    );
    assert.deepEqual(await Promise.all(newcomers), ['ok', 'ok']);
    assert.equal(await sameAgain, 'ok', 'still shorter than the flood');
    const flooded = await Promise.all(flood);
    // The flood's 3 newest gave way; the crowd of 4 × 4 kept every place.
    assert.deepEqual(flooded.slice(-3), Array(3).fill('ServiceUnavailable'));
    assert.equal(flooded.filter((s) => s === 'ok').length, 46);
    assert.ok((await Promise.all(crowd)).every((s) => s === 'ok'));
  });
});
