/**
 * The booking loop (wave 2) against the real server: an amateur reserves and
 * sees the cancellation deadline (and, on a lesson dated today, why it can no
 * longer be cancelled), downloads the lesson's .ics, another amateur joins
 * the waitlist of a full lesson, the pro calls a lesson off with a reason and
 * the amateur sees 中止 and the reason, and a 通知設定 switch survives a
 * reload. Lessons are made through the API so the spec does not depend on
 * the demo data's dates. Runs with its own server.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import ICAL from 'ical.js';
import type { Locator, Page } from 'playwright-core';
import type { Schedule } from '@proam/contract';
import {
  apiCall,
  apiLogin,
  type ApiLogin,
  japanDate,
  lessonCard,
  loginAsAdmin,
  loginThroughForm,
  reserveOnProPage,
  shootBoth,
  waitForSplash,
} from './helpers.ts';
import { serverAndBrowser } from './suite.ts';

const suite = serverAndBrowser();

const WEEKDAYS = ['日', '月', '火', '水', '木', '金', '土'];

/** 「11月28日(土) 23:59」 for a lesson on the 29th, computed here independently of the app. */
const deadlineOf = (lessonDate: string) => {
  const d = new Date(`${lessonDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return `${d.getUTCMonth() + 1}月${d.getUTCDate()}日(${WEEKDAYS[d.getUTCDay()]}) 23:59`;
};

/** `2026年11月29日(日)`, as the cards' buttons name a lesson. */
const longDate = (ymd: string) => {
  const d = new Date(`${ymd}T00:00:00Z`);
  return `${d.getUTCFullYear()}年${d.getUTCMonth() + 1}月${d.getUTCDate()}日(${WEEKDAYS[d.getUTCDay()]})`;
};

/** A call as a logged-in member; it must answer OK. */
const memberCall = <T>(who: ApiLogin, apiPath: string, body: unknown) =>
  apiCall<T>(suite.server.baseUrl, apiPath, body, who);

const login = async (page: Page, email: string, route: string, h1: string) => {
  await loginThroughForm(page, suite.server.baseUrl, email, { route, h1 });
  await waitForSplash(page);
};

/**
 * `390-<name>.png` and `1280-<name>.png` (the phone the brief names and the
 * desktop) of the window with `target` in the middle (the whole page from
 * the top without one), checking nothing overflows sideways.
 */
const shoot = (page: Page, name: string, target?: Locator) =>
  shootBoth(page, name, {
    settle: true,
    top: true,
    target,
    widths: [390, 1280],
  });

describe('the booking loop', () => {
  it('reserve, deadline, calendar file, waitlist, calling off, notification settings', async () => {
    const stamp = Date.now() % 100000;
    const placeA = `E2E予約テストCC ${stamp}`;
    const placeB = `E2E満員テストCC ${stamp}`;
    const placeToday = `E2E当日テストCC ${stamp}`;
    const dateA = japanDate(10);
    const dateB = japanDate(12);
    const today = japanDate(0);

    const pro = await apiLogin(suite.server.baseUrl, 'pro1@example.jp');
    const ama1 = await apiLogin(suite.server.baseUrl, 'ama1@example.jp');
    const proName = `${pro.user.userName}プロ`;
    // Afternoon times, clear of the demo lessons (07:30 and 09:00 starts).
    const lesson = (over: Record<string, unknown>) => ({
      startTime: '15:00',
      endTime: '17:30',
      area: '東京都',
      fee: 15000,
      ...over,
    });
    await memberCall<Schedule>(
      pro,
      '/schedule/create',
      lesson({ date: dateA, place: placeA, capacity: 3 }),
    );
    const full = await memberCall<Schedule>(
      pro,
      '/schedule/create',
      lesson({ date: dateB, place: placeB, capacity: 1 }),
    );
    // ama1 takes the only place: the lesson is full (満員) for ama2.
    const reservedB = await memberCall<Schedule>(ama1, '/schedule/reserve', {
      id: full.id,
    });
    assert.equal(reservedB.statusRound, 'full');
    // Dated today, late: reservable until it starts (23:50 Japan time), but
    // its deadline (yesterday) has passed.
    await memberCall<Schedule>(
      pro,
      '/schedule/create',
      lesson({
        date: today,
        place: placeToday,
        capacity: 3,
        startTime: '23:50',
        endTime: '23:55',
      }),
    );

    const amaTab = await suite.openPage(390);
    const ama2Tab = await suite.openPage(390);
    const proTab = await suite.openPage(1280);
    try {
      // ama1 reserves lesson A from the pro's schedule page.
      const a = amaTab.page;
      await login(a, 'ama1@example.jp', '/tabs/schedule', 'スケジュール');
      await reserveOnProPage(a, suite.server.baseUrl, pro.user.id, placeA);
      await a.getByText(/を予約しました。/).waitFor();
      await lessonCard(a, placeA).getByText('予約済み').waitFor();
      await lessonCard(a, placeA)
        .getByText(`キャンセル期限：${deadlineOf(dateA)}`)
        .waitFor();
      // The lesson dated today: its card says a booking cannot be cancelled,
      // and 予約する asks first; reserved, it can no longer be cancelled.
      await lessonCard(a, placeToday)
        .getByText('本日のレッスンのため、予約後のキャンセルはできません。')
        .waitFor();
      await lessonCard(a, placeToday)
        .getByRole('button', { name: /を予約する$/ })
        .click();
      const sameDay = a.getByRole('dialog', { name: '本日のレッスンの予約' });
      await sameDay.getByText(/予約後はキャンセルできません。/).waitFor();
      await sameDay.getByRole('button', { name: '予約する' }).click();
      await lessonCard(a, placeToday).getByText('予約済み').waitFor();

      // The schedule tab: the deadline, キャンセル before it, the reason after it.
      await a.goto(`${suite.server.baseUrl}/#/tabs/schedule`);
      await a
        .getByRole('heading', { level: 2, name: '予約中のレッスン' })
        .waitFor();
      const cardA = lessonCard(a, placeA);
      await cardA.getByText(`キャンセル期限：${deadlineOf(dateA)}`).waitFor();
      await cardA
        .getByRole('button', { name: `${longDate(dateA)}の予約をキャンセル` })
        .waitFor();
      const cardToday = lessonCard(a, placeToday);
      await cardToday
        .getByText('キャンセル期限を過ぎたため、キャンセルできません。', {
          exact: false,
        })
        .waitFor();
      assert.equal(
        await cardToday
          .getByRole('button', { name: /の予約をキャンセル$/ })
          .count(),
        0,
      );
      const map = cardA.getByRole('link', { name: /^地図で見る：/ });
      assert.equal(
        await map.getAttribute('href'),
        `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(placeA)}`,
      );
      assert.equal(await map.getAttribute('target'), '_blank');
      assert.match((await map.getAttribute('rel')) ?? '', /noopener/);
      await shoot(a, 'booking-reservation-deadline', cardA);
      await shoot(a, 'booking-deadline-passed', cardToday);

      // カレンダーに追加: an .ics that calendar apps read, 15:00 Japan time = 06:00Z.
      const [download] = await Promise.all([
        a.waitForEvent('download'),
        cardA
          .getByRole('button', {
            name: `${longDate(dateA)}のレッスンをカレンダーに追加`,
          })
          .click(),
      ]);
      assert.match(download.suggestedFilename(), /^proam-lesson-.*\.ics$/);
      const ics = await readFile((await download.path())!, 'utf8');
      assert.ok(ics.includes('\r\n'), 'CRLF line ends');
      const vevent = new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent(
        'vevent',
      )!;
      const event = new ICAL.Event(vevent);
      assert.equal(
        event.startDate.toJSDate().toISOString(),
        `${dateA}T06:00:00.000Z`,
      );
      assert.equal(event.summary, `ラウンドレッスン（${proName}）`);
      assert.equal(event.location, placeA);
      assert.match(event.description, /#\/tabs\/schedule/);

      // ama2 joins the waitlist of the full lesson B.
      const b = ama2Tab.page;
      await login(b, 'ama2@example.jp', '/tabs/schedule', 'スケジュール');
      await b.goto(
        `${suite.server.baseUrl}/#/tabs/schedule/pro/${pro.user.id}`,
      );
      const cardB = lessonCard(b, placeB);
      await cardB.getByText('満員', { exact: true }).waitFor();
      await cardB
        .getByRole('button', { name: /キャンセル待ちに登録$/ })
        .click();
      await b.getByText(/キャンセル待ちに登録しました（1番目）/).waitFor();
      await cardB.getByText('キャンセル待ち 1番目').waitFor();
      await cardB
        .getByRole('button', { name: /キャンセル待ちをやめる$/ })
        .waitFor();
      await cardB.getByText('1人').waitFor();
      await shoot(b, 'booking-waitlist', cardB);
      // The schedule tab lists it too.
      await b.goto(`${suite.server.baseUrl}/#/tabs/schedule`);
      await b
        .getByRole('heading', { level: 2, name: 'キャンセル待ち中のレッスン' })
        .waitFor();
      await lessonCard(b, placeB).getByText('キャンセル待ち 1番目').waitFor();

      // pro1 calls lesson A off from their calendar.
      const p = proTab.page;
      await login(p, 'pro1@example.jp', '/tabs/schedule', 'スケジュール');
      const [, monthA, dayA] = dateA.split('-').map(Number);
      const dayButton = p.getByRole('button', {
        // 「11月23日（月・祝）勤労感謝の日、レッスンあり」: weekday, 祝日 and lessons in the name.
        name: new RegExp(`^${monthA}月${dayA}日（[^）]+）.*レッスンあり$`),
      });
      // The calendar opens on this month; whether lessons have loaded yet
      // must not decide the month, so it follows from the date alone.
      if (dateA.slice(0, 7) !== japanDate(0).slice(0, 7))
        await p.getByRole('button', { name: '次の月' }).click();
      await dayButton.click();
      const proCardA = lessonCard(p, placeA);
      await proCardA
        .getByRole('button', { name: '15:00のレッスンを中止する' })
        .click();
      const dialog = p.getByRole('dialog', { name: 'レッスンの中止' });
      const reason = dialog.getByRole('textbox', { name: /中止の理由/ });
      assert.equal(await reason.getAttribute('placeholder'), '雨天のため');
      // Sending it empty explains what is missing and sends nothing.
      await dialog.getByRole('button', { name: '中止する' }).click();
      await dialog.getByText('中止の理由を入力してください。').waitFor();
      await reason.fill('雨天のため');
      await shoot(p, 'booking-call-off-dialog', dialog);
      await dialog.getByRole('button', { name: '中止する' }).click();
      await p.getByText(/のレッスンを中止にしました。/).waitFor();
      await proCardA.getByText('中止の理由：雨天のため').waitFor();
      await proCardA.getByText('中止', { exact: true }).waitFor();
      await shoot(p, 'booking-called-off-pro', proCardA);

      // ama1 sees 中止 and the reason on the reservation card.
      await a.reload();
      await a
        .getByRole('heading', { level: 2, name: '予約中のレッスン' })
        .waitFor();
      await cardA.getByText('中止の理由：雨天のため').waitFor();
      await cardA.getByText('中止', { exact: true }).waitFor();
      assert.equal(
        await cardA.getByRole('button', { name: /キャンセル/ }).count(),
        0,
      );
      await shoot(a, 'booking-called-off', cardA);

      // 通知設定: a switch is saved at once and kept after a reload.
      await a.goto(`${suite.server.baseUrl}/#/tabs/profile`);
      const reminder = a.getByRole('switch', { name: '前日のリマインダー' });
      await reminder.waitFor();
      assert.equal(await reminder.isChecked(), true);
      await reminder.click();
      await a.getByText('保存しました（前日のリマインダー：オフ）').waitFor();
      await shoot(
        a,
        'booking-notification-settings',
        a.getByRole('region', { name: '通知設定' }),
      );
      await a.reload();
      await reminder.waitFor();
      assert.equal(await reminder.isChecked(), false);
      assert.equal(
        await a
          .getByRole('switch', { name: '予約・キャンセルのお知らせ' })
          .isChecked(),
        true,
      );
      // The keyboard turns it back on.
      await reminder.focus();
      await a.keyboard.press('Space');
      await a.getByText('保存しました（前日のリマインダー：オン）').waitFor();

      assert.deepEqual(amaTab.errors, []);
      assert.deepEqual(ama2Tab.errors, []);
      assert.deepEqual(proTab.errors, []);
    } finally {
      await amaTab.context.close();
      await ama2Tab.context.close();
      await proTab.context.close();
    }
  });

  it('shows an admin the メール送信状況', async () => {
    await suite.withPage(1280, async ({ page }) => {
      await loginAsAdmin(page, suite.server.baseUrl, 'mail');
      const section = page.getByRole('region', { name: 'メール送信状況' });
      await section.getByText('送信待ち').waitFor();
      await section
        .getByText('送信に失敗したメール', { exact: true })
        .waitFor();
      await shoot(page, 'booking-mail-outbox');
    });
  });
});
